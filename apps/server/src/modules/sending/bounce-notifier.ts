import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import {
  claimDueBounces,
  listClaimedBounces,
  listSentIdsWithDueBounces,
  type OutboundQueueChanges,
  settleClaimedBounces,
} from '../../db/repositories/outbound-queue-repo.js';
import type { Queryable } from '../../db/repositories/queryable.js';
import { findSentMessageHeadline } from '../../db/repositories/sent-message-repo.js';
import type { Database } from '../../db/schema.js';
import { readHeaderBlock } from '../../protocols/mime/header-block.js';
import { CommitDeclined, DeliveryError, type InboundService } from '../mail/index.js';
import { BOUNCE_LOCAL_PART, composeBounce } from './bounce-message.js';

/** Sent messages one pass looks at. */
const BATCH = 50;

interface Logger {
  info(message: string): void;
  warn(message: string): void;
}

export interface BounceNotifierDeps {
  db: Kysely<Database>;
  inbound: InboundService;
  /** the signed bytes of a sent message */
  content(sentId: number): Readable;
  /** MAIL_HOSTNAME: the bounce comes from MAILER-DAEMON there */
  mailHostname: string;
  /** how long a claimed bounce stays with this process */
  leaseMs: number;
  /** waits before storing a bounce again after a temporary failure; retries end with the list */
  retryDelaysMs: number[];
  log: Logger;
}

/**
 * Tells senders about recipients that failed for good (RFC 3464 bounces, RFC 5321 section 6.1:
 * the sender must learn that a message it handed over cannot be delivered). The delivery worker
 * sets `bounce_state = 'pending'` in the UPDATE that records a failure; this takes the pending
 * rows of one sent message with a claim (owner and lease, as deliveries are claimed), so the
 * recipients that failed in the same poll share one bounce, and stores the bounce in the sender's
 * mailbox through the inbound service (filters and quota apply, as to any mail). The rows become
 * `sent` inside the transaction that stores the bounce, and only if the claim is still this
 * process's: a crash leaves them pending (the next process sends them once), and a process whose
 * lease ran out while another took over stores nothing. A failure to store it never touches the
 * delivery's own record.
 */
export function createBounceNotifier(deps: BounceNotifierDeps) {
  const { db, inbound, log } = deps;

  async function claim(sentId: number) {
    const now = Date.now();
    const owner = randomUUID();
    await claimDueBounces(db, sentId, { owner, until: now + deps.leaseMs, now });
    const rows = await listClaimedBounces(db, sentId, owner);
    return { owner, rows };
  }

  /** Moves claimed rows on, only while the claim is still `owner`'s; true when all of them moved. */
  async function settle(
    executor: Queryable,
    owner: string,
    ids: number[],
    changes: OutboundQueueChanges,
  ): Promise<boolean> {
    return (await settleClaimedBounces(executor, owner, ids, changes)) === ids.length;
  }

  /** After a temporary failure: again later, or give up once the retries are used. */
  async function retryLater(owner: string, ids: number[], attempts: number, why: string): Promise<void> {
    const delays = deps.retryDelaysMs;
    if (attempts > delays.length) {
      log.warn(`outbound: gave up storing a bounce for queue rows ${ids.join(',')}: ${why}`);
      await settle(db, owner, ids, { bounce_state: 'abandoned', bounce_due_at: null });
      return;
    }
    const delay = delays[attempts - 1] ?? delays[delays.length - 1] ?? 60_000;
    await settle(db, owner, ids, { bounce_due_at: Date.now() + delay });
  }

  async function notify(sentId: number): Promise<void> {
    const { owner, rows } = await claim(sentId);
    if (rows.length === 0) return;
    const ids = rows.map((row) => row.id);
    const message = await findSentMessageHeadline(db, sentId);
    const sender = message?.from_address.trim() ?? '';
    // Never bounce a bounce (RFC 5321 section 4.5.5: no notification about a notification, lest
    // they loop): nothing goes back to an empty sender or to a mailer daemon.
    if (!message || !sender || sender.split('@')[0]?.toLowerCase() === BOUNCE_LOCAL_PART.toLowerCase()) {
      await settle(db, owner, ids, { bounce_state: 'skipped', bounce_due_at: null });
      return;
    }
    const attempts = Math.max(...rows.map((row) => row.bounce_attempts));
    try {
      const headers = await readHeaderBlock(deps.content(sentId));
      const bounce = composeBounce({
        reportingMta: deps.mailHostname,
        sender,
        original: {
          messageId: message.message_id,
          subject: message.subject,
          queuedAt: message.created_at,
          headers,
        },
        recipients: rows.map((row) => ({
          rcpt: row.rcpt,
          status: row.failure_status ?? '5.0.0',
          reply: row.last_reply,
          remoteMta: row.remote_mta,
          reason: row.last_error ?? '',
          attempts: row.attempts,
          lastAttemptAt: row.updated_at,
        })),
        date: new Date(),
      });
      const spool = await inbound.spool(Readable.from([bounce.bytes]));
      const result = await inbound.deliver(
        spool,
        { mailFrom: '', recipients: [sender], remoteAddress: '127.0.0.1' },
        {
          beforeCommit: (trx) => settle(trx, owner, ids, { bounce_state: 'sent', bounce_due_at: null }),
        },
      );
      // The sender's own filter dropped it: nothing was stored, and nothing should be again.
      if (result.discarded) await settle(db, owner, ids, { bounce_state: 'skipped', bounce_due_at: null });
    } catch (error) {
      if (error instanceof CommitDeclined) return;
      if (error instanceof DeliveryError) {
        switch (error.failure) {
          case 'no-recipients':
            // A user may send from any name on its domains; one without a mailbox has nobody to
            // tell, and the failure stays on the sent item.
            log.info(`outbound: no bounce for ${sender}: no mailbox has that address`);
            await settle(db, owner, ids, { bounce_state: 'skipped', bounce_due_at: null });
            return;
          case 'rejected':
          case 'limits':
            await settle(db, owner, ids, { bounce_state: 'skipped', bounce_due_at: null });
            return;
          case 'quota':
          case 'storage':
          case 'storage-full':
            await retryLater(owner, ids, attempts, error.message);
            return;
        }
      }
      log.warn(`outbound: storing a bounce for ${sender} failed: ${(error as Error).message}`);
      await retryLater(owner, ids, attempts, (error as Error).message);
    }
  }

  return {
    /** Sends the bounces that are due, one per sent message with failed recipients. */
    async run(isStopped: () => boolean): Promise<void> {
      const due = await listSentIdsWithDueBounces(db, Date.now(), BATCH);
      for (const sentId of due) {
        if (isStopped()) return;
        await notify(sentId);
      }
    },
  };
}

export type BounceNotifier = ReturnType<typeof createBounceNotifier>;
