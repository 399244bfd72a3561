import { randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { Kysely, Transaction } from 'kysely';
import type { Engine } from '../../db/database.js';
import { activeDomainNameExists } from '../../db/repositories/domain-repo.js';
import {
  type ActiveForward,
  listActiveForwards,
  recordForwardSkipped,
} from '../../db/repositories/forward-repo.js';
import { insertDeliveries } from '../../db/repositories/outbound-queue-repo.js';
import { insertSentMessage, insertSentMessageChunk } from '../../db/repositories/sent-message-repo.js';
import { saveSettingIfAbsent } from '../../db/repositories/setting-repo.js';
import type { Database } from '../../db/schema.js';
import { hitRateLimitIn } from '../../lib/database-rate-limits.js';
import { DAY, HOUR } from '../../lib/time.js';
import { isSrs0LocalPart, SrsError, srsForward, srsReverse } from '../../protocols/srs/srs.js';
import type { Envelope, ForwardingHook, ForwardPlan, ParsedMail, SrsReturn } from '../mail/index.js';
import { CHUNK_BYTES, copyFileToChunks, isVisitorMailbox, SEND_COUNTERS } from '../sending/index.js';
import type { SettingsService } from '../settings/index.js';

/**
 * A message that already shows this many `Received` fields is not forwarded: it has most likely
 * been going round a forwarding loop (Postfix's `hopcount_limit` is the same 50; RFC 5321 section
 * 6.3 asks a relay to give up on a loop by counting them).
 */
export const MAX_RECEIVED_TO_FORWARD = 50;
/** SRS0 returns (bounces of forwarded copies) sent back to one original sender per hour. */
export const RETURNS_PER_HOUR = 30;
/** Our mark on a forwarded copy: a message carrying one is never forwarded again (loop protection). */
export const FORWARD_MARK = 'X-Youju-Forwarded';
/** The settings key of the SRS secret (not a system setting: never shown, never editable). */
const SRS_SECRET_KEY = 'srs.secret';
/** How much of the message the loop checks read: the header block is at most 256 KiB (data-guard). */
const HEADER_LIMIT = 256 * 1024;

interface Logger {
  info(message: string): void;
  info(context: Record<string, unknown>, message: string): void;
}

function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}

/** The header block of the message (up to the empty line, at most HEADER_LIMIT bytes), as latin1. */
async function headerBlockOf(source: string | Buffer): Promise<string> {
  let head: Buffer;
  if (typeof source === 'string') {
    const handle = await open(source, 'r');
    try {
      const buffer = Buffer.alloc(HEADER_LIMIT);
      const { bytesRead } = await handle.read(buffer, 0, HEADER_LIMIT, 0);
      head = buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } else {
    head = source.subarray(0, HEADER_LIMIT);
  }
  const text = head.toString('latin1');
  const end = text.search(/\r?\n\r?\n/);
  return end < 0 ? text : text.slice(0, end);
}

/** The RFC 5322 section 3.3 date-time of `at`, as a Received field ends with. */
function rfc5322Date(at: Date): string {
  return at.toUTCString().replace('GMT', '+0000');
}

/**
 * Forwarding as delivery sees it (mail/inbound-service.ts ForwardingHook): the SRS0 addresses of
 * our domains, and the copies queued on the outbound queue inside the transaction that stores the
 * received message (at least once across a crash: the copy commits with the message, and the
 * delivery worker retries it like any sent mail). A copy is the received bytes unchanged after two
 * added header fields (`X-Youju-Forwarded`, `Received`), so the original DKIM signature still
 * verifies (RFC 6376 section 5.4: fields added above are not covered), with the envelope sender
 * rewritten by SRS0 onto the mailbox's own domain so that SPF at the next hop passes.
 */
export function createForwardingHook(deps: {
  db: Kysely<Database>;
  engine: Engine;
  settings: SettingsService;
  mailHostname: string;
  log: Logger;
}): ForwardingHook {
  const { db, engine, settings, mailHostname, log } = deps;
  let secret: Promise<string> | null = null;

  /** The SRS secret, made once for the installation (every process shares it through the database). */
  function srsSecret(): Promise<string> {
    secret ??= saveSettingIfAbsent(db, SRS_SECRET_KEY, JSON.stringify(randomBytes(32).toString('base64')))
      .then((stored) => JSON.parse(stored) as string)
      .catch((error: unknown) => {
        secret = null;
        throw error;
      });
    return secret;
  }

  async function reverse(address: string): Promise<string | null> {
    const at = address.lastIndexOf('@');
    const local = address.slice(0, at);
    if (at <= 0 || !isSrs0LocalPart(local)) return null;
    // Only our own active domains answer for SRS0 addresses (a pending domain receives nothing).
    if (!(await activeDomainNameExists(db, domainOf(address)))) return null;
    try {
      const original = srsReverse(local, await srsSecret());
      return `${original.local}@${original.domain}`;
    } catch (error) {
      if (error instanceof SrsError) return null;
      throw error;
    }
  }

  /** Stores `prefix` then the message as the chunks of sent item `sentId`. */
  async function copyContent(
    trx: Transaction<Database>,
    sentId: number,
    prefix: Buffer,
    source: string | Buffer,
    size: number,
  ): Promise<void> {
    await insertSentMessageChunk(trx, sentId, 0, prefix);
    if (typeof source === 'string') {
      await copyFileToChunks(source, size, (seq, data) => insertSentMessageChunk(trx, sentId, seq + 1, data));
      return;
    }
    for (let offset = 0, seq = 1; offset < source.length; offset += CHUNK_BYTES, seq++) {
      await insertSentMessageChunk(trx, sentId, seq, source.subarray(offset, offset + CHUNK_BYTES));
    }
  }

  /** Queues one copy of the message to `rcpt` with envelope sender `envelopeFrom`. */
  async function queueCopy(
    trx: Transaction<Database>,
    copy: {
      mailboxId: number | null;
      accountId: number | null;
      fromAddress: string;
      envelopeFrom: string;
      rcpt: string;
      prefix: string;
      message: { source: string | Buffer; size: number; sha256: string; parsed: ParsedMail | null };
    },
  ): Promise<void> {
    const now = Date.now();
    const prefix = Buffer.from(copy.prefix, 'utf8');
    const sentId = await insertSentMessage(trx, {
      account_id: copy.accountId,
      mailbox_id: copy.mailboxId,
      from_address: copy.fromAddress,
      to_json: JSON.stringify([copy.rcpt]),
      cc_json: '[]',
      bcc_json: '[]',
      subject: (copy.message.parsed?.subject ?? '').replaceAll('\0', '').slice(0, 998),
      text_body: null,
      html_body: null,
      attachments_json: '[]',
      message_id: (copy.message.parsed?.messageId ?? '').replaceAll('\0', '').slice(0, 998),
      recipient_count: 1,
      size: copy.message.size + prefix.length,
      // of the received bytes: the copy is they with the two fields in front
      sha256: copy.message.sha256,
      created_at: now,
      kind: 'forward',
      envelope_from: copy.envelopeFrom,
    });
    await copyContent(trx, sentId, prefix, copy.message.source, copy.message.size);
    await insertDeliveries(trx, [
      {
        sent_id: sentId,
        rcpt: copy.rcpt,
        status: 'queued',
        attempts: 0,
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
      },
    ]);
  }

  /**
   * Takes the forwarded copy from the mailbox's `sendPerHour` and `sendPerDay` allowance (the same
   * counters as sendEmail and SMTP submission), in the storing transaction; returns why not when
   * the allowance is used up (the count is given back then).
   */
  async function takeAllowance(
    trx: Transaction<Database>,
    mailboxId: number,
    limits: { sendPerHour: number; sendPerDay: number },
  ): Promise<string | null> {
    const key = `mailbox:${mailboxId}`;
    const taken: (() => Promise<void>)[] = [];
    const checks: [string, number, number, string][] = [
      [
        SEND_COUNTERS.hour,
        HOUR,
        limits.sendPerHour,
        `已达每小时发信上限（${limits.sendPerHour} 封），这封邮件未转发`,
      ],
      [
        SEND_COUNTERS.day,
        DAY,
        limits.sendPerDay,
        `已达每天发信上限（${limits.sendPerDay} 封），这封邮件未转发`,
      ],
    ];
    for (const [name, window, limit, message] of checks) {
      if (limit <= 0) continue;
      const hit = await hitRateLimitIn(trx, engine, name, window, key);
      taken.push(hit.release);
      if (hit.total > limit) {
        for (const release of taken) await release();
        return message;
      }
    }
    return null;
  }

  return {
    reverse,

    async plan(mailboxes, returns: SrsReturn[]): Promise<ForwardPlan | null> {
      const forwards = await listActiveForwards(
        db,
        mailboxes.map((mailbox) => mailbox.id),
      );
      if (forwards.length === 0 && returns.length === 0) return null;
      const policy = await settings.get();
      const key = await srsSecret();
      const ownerOf = new Map(mailboxes.map((mailbox) => [mailbox.id, mailbox.owner_id]));

      /** Why this message must not be forwarded for `forward`, or null. */
      async function refusal(
        trx: Transaction<Database>,
        forward: ActiveForward,
        message: { envelope: Envelope; parsed: ParsedMail | null; header: string; spam: boolean },
      ): Promise<string | null> {
        const sender = message.envelope.mailFrom.trim().toLowerCase();
        // RFC 3834 section 2 and RFC 5321 section 4.5.5: a bounce is never sent on again (loops, backscatter).
        if (!sender) return '退信（发件人为空）不转发，以免形成退信循环';
        if (new RegExp(`^${FORWARD_MARK}:`, 'im').test(message.header)) {
          return '这封邮件已经被本站转发过一次，为防止转发循环不再转发';
        }
        const hops = (message.header.match(/^received:/gim) ?? []).length;
        if (hops >= MAX_RECEIVED_TO_FORWARD)
          return `这封邮件已经过 ${hops} 次中转，可能存在转发循环，不再转发`;
        const target = forward.forwardTo.toLowerCase();
        const headerFrom = message.parsed?.from?.address.toLowerCase() ?? '';
        if (sender === target || headerFrom === target) {
          return '这封邮件来自转发目标地址本身，为防止转发循环不再转发';
        }
        if (message.spam) return '垃圾邮件不转发';
        if (isVisitorMailbox(forward.source) && !policy.anonymousSend) {
          return '临时邮箱和自助注册的邮箱不能把邮件转发到站外';
        }
        // Checked when it was set; the domain may have been added here since (no loop through us).
        if (await activeDomainNameExists(trx, domainOf(target))) return '转发目标已是本站的地址，不再转发';
        return null;
      }

      return {
        async enqueue(trx, message) {
          const header = await headerBlockOf(message.source);
          const noLocalCopy = new Set<number>();
          const now = Date.now();
          const date = rfc5322Date(new Date(now));
          for (const forward of forwards) {
            let why = await refusal(trx, forward, {
              envelope: message.envelope,
              parsed: message.parsed,
              header,
              spam: message.spam(forward.mailboxId),
            });
            let envelopeFrom = '';
            if (!why) {
              try {
                envelopeFrom = srsForward(
                  message.envelope.mailFrom.trim(),
                  domainOf(forward.address),
                  key,
                  now,
                );
              } catch (error) {
                if (!(error instanceof SrsError)) throw error;
                why = '发件人地址无法改写（SRS），这封邮件未转发';
              }
            }
            why ??= await takeAllowance(trx, forward.mailboxId, policy);
            if (why) {
              // Never a lost message: the local copy stays (see noLocalCopy), and the owner sees why.
              await recordForwardSkipped(trx, forward.mailboxId, now, why);
              log.info({ mailboxId: forward.mailboxId }, `forwarding: copy not forwarded: ${why}`);
              continue;
            }
            await queueCopy(trx, {
              mailboxId: forward.mailboxId,
              accountId: ownerOf.get(forward.mailboxId) ?? null,
              fromAddress: forward.address,
              envelopeFrom,
              rcpt: forward.forwardTo,
              prefix:
                `${FORWARD_MARK}: ${forward.address}\r\n` +
                `Received: from ${mailHostname} by ${mailHostname} (Youju) id forward\r\n` +
                `\tfor <${forward.forwardTo}>; ${date}\r\n`,
              message,
            });
            if (!forward.keepCopy) noLocalCopy.add(forward.mailboxId);
          }
          for (const back of returns) {
            // At most RETURNS_PER_HOUR to one original sender: a forged bounce flood through one
            // leaked SRS0 address stops there (a real sender rarely gets more bounces back).
            const hit = await hitRateLimitIn(trx, engine, 'srs-returns', HOUR, back.to.toLowerCase());
            if (hit.total > RETURNS_PER_HOUR) {
              await hit.release();
              log.info(
                `forwarding: SRS0 return to ${back.to.split('@')[1] ?? ''} dropped: over ${RETURNS_PER_HOUR} an hour`,
              );
              continue;
            }
            // Back to the original sender with the empty envelope sender of a bounce (RFC 5321
            // section 4.5.5), so that it can cause no bounce in turn; nobody's sent mail.
            await queueCopy(trx, {
              mailboxId: null,
              accountId: null,
              fromAddress: '',
              envelopeFrom: '',
              rcpt: back.to,
              prefix:
                `${FORWARD_MARK}: ${back.rcpt}\r\n` +
                `Received: from ${mailHostname} by ${mailHostname} (Youju) id srs-return\r\n` +
                `\tfor <${back.to}>; ${date}\r\n`,
              message,
            });
          }
          return noLocalCopy;
        },
      };
    },
  };
}
