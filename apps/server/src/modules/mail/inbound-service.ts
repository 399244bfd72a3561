import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Kysely, Transaction } from 'kysely';
import type { Engine } from '../../db/database.js';
import { requireSynchronousCommit } from '../../db/durability.js';
import { type CommitSlot, createGroupCommit } from '../../db/group-commit.js';
import { findDomainStatusByName } from '../../db/repositories/domain-repo.js';
import {
  addMailboxUsageWithinQuota,
  findMailboxIdByAddress,
  findReceivingMailboxes,
  isRetiredAddress,
  type RecipientMailbox,
} from '../../db/repositories/mailbox-repo.js';
import { insertMessages, type NewMessageInFolder } from '../../db/repositories/message-repo.js';
import type { Database, FolderName } from '../../db/schema.js';
import { isStorageFull } from '../../lib/api-error.js';
import type { FilterAction, FilterService } from '../filters/index.js';
import type { SettingsService } from '../settings/index.js';
import type { AuthVerdict, InboundAuthenticator } from './inbound-auth.js';
import type { MailEvents } from './mail-events.js';
import { MessageLimitError, type ParsedMail, parseMail } from './mail-parser.js';
import { insertRaw } from './raw-store.js';
import { findVerificationCode } from './verification-code.js';

/**
 * Why a delivery did not happen, in terms the SMTP layer maps to reply codes; the service knows
 * nothing about SMTP.
 */
export type DeliveryFailure =
  /** no recipient mailbox exists (any more) */
  | 'no-recipients'
  /** a recipient's quota would be exceeded */
  | 'quota'
  /** a content filter refused the message for every recipient */
  | 'rejected'
  /** DMARC failed and the sender's domain publishes `p=reject` (RFC 7489 section 6.6.2) */
  | 'auth-rejected'
  /** the message breaks a structural limit (header size, MIME parts) */
  | 'limits'
  /** the disk or database is full */
  | 'storage-full'
  /** storing failed for another reason */
  | 'storage';

export class DeliveryError extends Error {
  constructor(
    readonly failure: DeliveryFailure,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Thrown by `deliver` when its `beforeCommit` step declined the commit: nothing was stored. The
 * caller's own claim was lost (another process holds the work now), not the message's fault.
 */
export class CommitDeclined extends Error {}

export interface DeliverOptions {
  /**
   * Runs inside the storing transaction after the message rows are written, so that the caller's
   * own bookkeeping commits with the message or not at all; returning false rolls the delivery
   * back and `deliver` throws `CommitDeclined`.
   */
  beforeCommit?(trx: Transaction<Database>): Promise<boolean>;
}

/**
 * Forwarding (modules/forwarding), seen from delivery: the SRS0 addresses it answers for, and the
 * copies it queues inside the storing transaction. Injected, so that this module knows nothing of
 * the outbound queue.
 */
export interface ForwardingHook {
  /** The original sender an SRS0 address on one of our domains stands for, or null (not SRS, forged, expired). */
  reverse(address: string): Promise<string | null>;
  /**
   * Outside any transaction (SQLite has one connection): what forwarding this delivery needs, or
   * null when no recipient forwards and there is no SRS0 recipient.
   */
  plan(mailboxes: RecipientMailbox[], returns: SrsReturn[]): Promise<ForwardPlan | null>;
}

/** A message to an SRS0 address of ours (a bounce of a forwarded copy), to go back to `to`. */
export interface SrsReturn {
  rcpt: string;
  to: string;
}

export interface ForwardPlan {
  /**
   * Inside the storing transaction: queues the forwarded copies and the SRS returns. Returns the
   * mailboxes that keep no local copy (their copy was queued and the owner wants none); a copy
   * that is not forwarded (limits, loops, policy) is always kept.
   */
  enqueue(
    trx: Transaction<Database>,
    message: {
      source: string | Buffer;
      size: number;
      sha256: string;
      envelope: Envelope;
      parsed: ParsedMail | null;
      spam(mailboxId: number): boolean;
    },
  ): Promise<Set<number>>;
}

/**
 * A received message between DATA and the commit: held in memory when small (most mail), in a
 * file under `DATA_DIR/tmp` when larger, so that a big message is never held whole in memory.
 * Either way it was read from the socket exactly once.
 */
export interface Spool {
  /** the spool file, or null when the message is held in `bytes` */
  path: string | null;
  bytes: Buffer | null;
  size: number;
  sha256: string;
}

/** Messages up to this size stay in memory between DATA and the commit (saves a file round trip). */
export const MEMORY_SPOOL_BYTES = 512 * 1024;

/** The spooled message's content, wherever it is held. */
export function spoolSource(spool: Spool): string | Buffer {
  return spool.bytes ?? spool.path ?? Buffer.alloc(0);
}

export interface Envelope {
  mailFrom: string;
  recipients: string[];
  remoteAddress: string;
  /** the SMTP session that brought the message, for the log lines about it */
  smtpSession?: string;
  /**
   * The EHLO/HELO name, set by the SMTP listener for mail from the network: with it the message is
   * authenticated (SPF, DKIM, DMARC); mail this server made itself (local delivery, bounces) has none.
   */
  helo?: string;
}

export interface RecipientCheck {
  accepted: boolean;
  /** set when the address exists but cannot take `declaredSize` more bytes */
  full: boolean;
  /** refused: the address's domain is claimed but its ownership not yet proven */
  pendingDomain?: boolean;
  /** refused: the address had a mailbox that expired or was deleted recently (not a probe) */
  retired?: boolean;
}

/** pino's calling convention: a message, or the fields of the line and then the message */
interface Logger {
  warn(message: string): void;
  warn(context: Record<string, unknown>, message: string): void;
  error(message: string): void;
  error(context: Record<string, unknown>, message: string): void;
}

/**
 * Receiving mail: recipient checks, spooling the DATA stream to a temporary file, parsing, content
 * filters and the durable store. See `deliver` for the order of events that makes "250" safe.
 */
export function createInboundService(deps: {
  db: Kysely<Database>;
  engine: Engine;
  dataDir: string;
  settings: SettingsService;
  filters: FilterService;
  events: MailEvents;
  log: Logger;
  /**
   * Runs inside the storing transaction once the message rows are written (the webhook and
   * Telegram deliveries are queued there), so that it commits with the mail or not at all.
   */
  afterStore?: (trx: Transaction<Database>, messageIds: number[]) => Promise<void>;
  /** checks SPF, DKIM and DMARC of mail from the network (the store worker has one) */
  authenticator?: InboundAuthenticator;
  /** forwarding copies and SRS0 returns (modules/forwarding) */
  forwarding?: ForwardingHook;
  /**
   * SQLite, a connection whose commits do not sync (the store worker's, `DatabaseHandle.syncWal`):
   * makes what was committed durable; a delivery resolves only after it.
   */
  syncWal?: (() => Promise<void>) | null;
}) {
  const { db, engine, settings, filters, events, log, afterStore, authenticator, forwarding } = deps;

  /** The authentication verdict of a message from the network; null for local mail. */
  async function authenticate(spool: Spool, envelope: Envelope): Promise<AuthVerdict | null> {
    if (!authenticator || envelope.helo === undefined) return null;
    try {
      return await authenticator.check(spoolSource(spool), {
        ip: envelope.remoteAddress,
        helo: envelope.helo,
        mailFrom: envelope.mailFrom,
      });
    } catch (error) {
      // The checks never refuse mail for our own failure: it is stored unchecked.
      log.warn(`authenticating a message failed: ${(error as Error).message}`);
      return null;
    }
  }
  const spoolDir = join(deps.dataDir, 'tmp');
  const groupCommit = engine === 'sqlite' ? createGroupCommit(db, { durable: deps.syncWal ?? null }) : null;

  async function liveMailboxes(addresses: string[]): Promise<RecipientMailbox[]> {
    if (addresses.length === 0) return [];
    // A pending domain (its TXT challenge not yet verified) receives nothing.
    return findReceivingMailboxes(db, addresses, Date.now());
  }

  /** Tells a pending domain and a recently retired address apart from an address never seen. */
  async function whyUnknown(address: string): Promise<{ pendingDomain?: boolean; retired?: boolean }> {
    const domain = await findDomainStatusByName(db, address.slice(address.lastIndexOf('@') + 1));
    if (domain?.status === 'pending') return { pendingDomain: true };
    if (await isRetiredAddress(db, address)) return { retired: true };
    // A mailbox that is there but does not receive (disabled, expired) is a former address too.
    const expired = await findMailboxIdByAddress(db, address);
    return expired !== undefined ? { retired: true } : {};
  }

  function overQuota(mailbox: RecipientMailbox, size: number): boolean {
    return mailbox.quota_bytes > 0 && mailbox.used_bytes + size > mailbox.quota_bytes;
  }

  return {
    /** Creates the spool directory and removes what a crash left in it (never acknowledged). */
    async prepare(): Promise<void> {
      await mkdir(spoolDir, { recursive: true });
      for (const name of await readdir(spoolDir)) {
        if (name.endsWith('.eml')) await rm(join(spoolDir, name), { force: true });
      }
    },

    async maxMessageBytes(): Promise<number> {
      return (await settings.get()).maxMessageBytes;
    },

    /**
     * RCPT TO: the address must be an enabled, unexpired mailbox (address or account) on one of
     * our domains. `declaredSize` is the SIZE parameter of MAIL FROM (RFC 1870), when given;
     * `mailFrom` the envelope sender (an SRS0 address takes only bounces, see srsReturns).
     */
    async checkRecipient(address: string, declaredSize: number, mailFrom = ''): Promise<RecipientCheck> {
      const normalized = address.trim().toLowerCase();
      // No mailbox has a NUL in its address, and PostgreSQL refuses one in a query parameter.
      if (normalized.includes('\0')) return { accepted: false, full: false };
      const [mailbox] = await liveMailboxes([normalized]);
      if (!mailbox) {
        // A bounce to the SRS0 envelope sender of a copy we forwarded goes back to its original
        // sender; a made-up or expired SRS0 address, or one sent anything but a bounce, is unknown
        // like any other address.
        if (mailFrom === '' && forwarding && (await forwarding.reverse(normalized)) !== null) {
          return { accepted: true, full: false };
        }
        return { accepted: false, full: false, ...(await whyUnknown(normalized)) };
      }
      const full =
        mailbox.quota_bytes > 0 &&
        (mailbox.used_bytes >= mailbox.quota_bytes || overQuota(mailbox, declaredSize));
      return { accepted: !full, full };
    },

    /**
     * Reads a (guarded) DATA stream once, hashing it on the way: into memory up to
     * MEMORY_SPOOL_BYTES, past that into a temporary file (what was read so far first).
     */
    async spool(source: Readable): Promise<Spool> {
      const hash = createHash('sha256');
      let size = 0;
      const take = (chunk: Buffer) => {
        size += chunk.length;
        hash.update(chunk);
        return chunk;
      };
      const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
      const head: Buffer[] = [];
      let path: string | null = null;
      try {
        for (;;) {
          if (size > MEMORY_SPOOL_BYTES) break;
          const next = await chunks.next();
          if (next.done)
            return { path: null, bytes: Buffer.concat(head, size), size, sha256: hash.digest('hex') };
          head.push(take(next.value));
        }
        await mkdir(spoolDir, { recursive: true });
        path = join(spoolDir, `${Date.now()}-${randomUUID()}.eml`);
        await pipeline(
          async function* () {
            yield* head.splice(0);
            for (let next = await chunks.next(); !next.done; next = await chunks.next())
              yield take(next.value);
          },
          createWriteStream(path, { highWaterMark: 256 * 1024 }),
        );
      } catch (error) {
        if (path) await rm(path, { force: true });
        if (isStorageFull(error)) throw new DeliveryError('storage-full', 'spool disk full');
        throw new DeliveryError('storage', `spool failed: ${(error as Error).message}`);
      }
      return { path, bytes: null, size, sha256: hash.digest('hex') };
    },

    async discard(spool: Spool): Promise<void> {
      if (spool.path) await rm(spool.path, { force: true });
    },

    /**
     * Stores a spooled message for its recipients and resolves only after the commit. Order:
     * 1. the DATA stream is already on disk in the spool file (read once, counted, hashed);
     * 2. parse it (streaming; a parse failure keeps the raw message and what headers it can);
     * 3. content filters decide per recipient owner;
     * 4. one transaction stores the raw bytes in chunks, one message row per recipient mailbox and
     *    the quota accounting; the commit is synchronous on both engines (on the store worker's
     *    SQLite connection: followed by the WAL sync, `syncWal`), so when this resolves a
     *    `kill -9` cannot lose the message — and before it resolves nothing was acknowledged.
     * The spool file is removed either way.
     */
    async deliver(
      spool: Spool,
      envelope: Envelope,
      options: DeliverOptions = {},
    ): Promise<{ messageIds: number[]; discarded: boolean }> {
      // A place in the next group commit, so that it waits for this message while it is prepared.
      const slot = groupCommit?.reserve() ?? null;
      try {
        const unique = [...new Set(envelope.recipients.map((r) => r.trim().toLowerCase()))];
        const mailboxes = await liveMailboxes(unique);
        const returns = envelope.mailFrom === '' ? await srsReturns(unique, mailboxes) : [];
        if (mailboxes.length === 0 && returns.length === 0) {
          throw new DeliveryError('no-recipients', 'no such mailbox');
        }
        const plan = forwarding ? await forwarding.plan(mailboxes, returns) : null;
        if (mailboxes.length === 0 && plan) {
          // Only SRS0 recipients: nothing to parse, filter or store here, the message goes back.
          await storeReturnsOnly(slot, spool, envelope, plan);
          return { messageIds: [], discarded: false };
        }
        if (mailboxes.some((mailbox) => overQuota(mailbox, spool.size))) {
          throw new DeliveryError('quota', 'mailbox quota exceeded');
        }

        // The DNS questions of SPF, DKIM and DMARC wait while the message is parsed.
        const checking = authenticate(spool, envelope);
        let parsed: ParsedMail;
        try {
          parsed = await parseMail(spoolSource(spool));
        } catch (error) {
          if (error instanceof MessageLimitError) throw new DeliveryError('limits', error.message);
          throw error;
        } finally {
          await checking.catch(() => null);
        }
        const verdict = await checking;
        if (verdict?.reject && (await settings.get()).dmarcReject) {
          throw new DeliveryError('auth-rejected', 'DMARC policy of the sender domain is reject');
        }

        const sender = parsed.from;
        const decisions = await filters.decide([...new Set(mailboxes.map((m) => m.owner_id))], {
          from: [
            sender?.address ?? '',
            sender?.name ?? '',
            sender ? `${sender.name} <${sender.address}>`.trim() : '',
            envelope.mailFrom,
          ].filter(Boolean),
          to: [...unique, ...parsed.to.flatMap((p) => [p.address, p.name].filter(Boolean))],
          subject: [parsed.subject],
          body: [parsed.text ?? parsed.html ?? ''],
        });
        const actionFor = (mailbox: RecipientMailbox): FilterAction =>
          decisions.get(mailbox.owner_id) ?? 'accept';
        if (mailboxes.every((mailbox) => actionFor(mailbox) === 'reject')) {
          throw new DeliveryError('rejected', 'refused by content filter');
        }
        // A message cannot be refused for some recipients after DATA (RFC 5321 section 3.3: one
        // reply for the transaction), so a mix of reject and accept drops it for the rejecting ones.
        const keep = mailboxes.filter((mailbox) => !['reject', 'discard'].includes(actionFor(mailbox)));
        if (keep.length === 0 && returns.length === 0) return { messageIds: [], discarded: true };

        const messageIds = await store(
          slot,
          spool,
          envelope,
          parsed,
          keep,
          // Junk: a spam filter, a failed DMARC quarantine or hard SPF fail, or a DMARC reject the
          // operator chose to keep (dmarcReject off).
          (mailbox) => actionFor(mailbox) === 'spam' || verdict?.junk === true || verdict?.reject === true,
          verdict,
          options,
          plan,
        );
        if (parsed.error) {
          log.warn(
            { smtpSession: envelope.smtpSession, messageIds },
            `stored a message whose MIME could not be fully read: ${parsed.error}`,
          );
        }
        events.announceCommitted(messageIds);
        return { messageIds, discarded: false };
      } catch (error) {
        if (error instanceof DeliveryError || error instanceof CommitDeclined) throw error;
        if (isStorageFull(error)) throw new DeliveryError('storage-full', 'storage full');
        log.error(
          { smtpSession: envelope.smtpSession },
          `storing a message failed: ${(error as Error).message}`,
        );
        throw new DeliveryError('storage', 'store failed');
      } finally {
        slot?.release();
        if (spool.path) await rm(spool.path, { force: true });
      }
    },
  };

  /**
   * The SRS0 recipients among `addresses` that no mailbox has, with the sender each stands for.
   * Only for mail with the empty envelope sender (bounces, and auto-replies as RFC 3834 section 3.3
   * asks): anything else to an SRS0 address would let whoever learnt one send arbitrary mail to its
   * original sender through us.
   */
  async function srsReturns(addresses: string[], mailboxes: RecipientMailbox[]): Promise<SrsReturn[]> {
    if (!forwarding) return [];
    const known = new Set(mailboxes.map((mailbox) => mailbox.address.toLowerCase()));
    const returns: SrsReturn[] = [];
    for (const rcpt of addresses) {
      if (known.has(rcpt)) continue;
      const to = await forwarding.reverse(rcpt);
      if (to !== null) returns.push({ rcpt, to });
    }
    return returns;
  }

  /** Queues the SRS0 returns of a message that has no local recipient, in one transaction. */
  async function storeReturnsOnly(
    slot: CommitSlot | null,
    spool: Spool,
    envelope: Envelope,
    plan: ForwardPlan,
  ): Promise<void> {
    const transaction = async (trx: Transaction<Database>) => {
      await requireSynchronousCommit(trx, engine);
      await plan.enqueue(trx, {
        source: spoolSource(spool),
        size: spool.size,
        sha256: spool.sha256,
        envelope,
        parsed: null,
        spam: () => false,
      });
    };
    await (slot ? slot.run(transaction) : db.transaction().execute(transaction));
  }

  async function store(
    slot: CommitSlot | null,
    spool: Spool,
    envelope: Envelope,
    parsed: ParsedMail,
    mailboxes: RecipientMailbox[],
    isSpam: (mailbox: RecipientMailbox) => boolean,
    verdict: AuthVerdict | null,
    options: DeliverOptions,
    plan: ForwardPlan | null,
  ): Promise<number[]> {
    const transaction = async (trx: Transaction<Database>) => {
      // A server configured with synchronous_commit=off would otherwise acknowledge mail that a
      // crash can still lose.
      await requireSynchronousCommit(trx, engine);
      const prefix = verdict ? Buffer.from(verdict.header, 'utf8') : null;
      // Forwarded copies first: a mailbox whose owner keeps no copy gets no row below. The copies
      // are queued in this transaction, so they commit with the message or not at all.
      const noLocalCopy = plan
        ? await plan.enqueue(trx, {
            source: spoolSource(spool),
            size: spool.size,
            sha256: spool.sha256,
            envelope,
            parsed,
            spam: (mailboxId) => mailboxes.some((mailbox) => mailbox.id === mailboxId && isSpam(mailbox)),
          })
        : new Set<number>();
      const stored = mailboxes.filter((mailbox) => !noLocalCopy.has(mailbox.id));
      if (stored.length === 0) {
        if (options.beforeCommit && !(await options.beforeCommit(trx))) throw new CommitDeclined();
        return [];
      }
      const rawId = await insertRaw(trx, spoolSource(spool), spool.size, spool.sha256, prefix);
      const storedSize = spool.size + (prefix?.length ?? 0);
      const auth = verdict ? JSON.stringify(verdict.auth) : null;
      const now = Date.now();
      const snippet = snippetOf(parsed.text ?? '');
      const code = findVerificationCode(parsed);
      const rows: NewMessageInFolder[] = [];
      for (const mailbox of stored) {
        // The quota check and the accounting in one statement, so concurrent deliveries cannot both
        // squeeze under the limit.
        if (!(await addMailboxUsageWithinQuota(trx, mailbox.id, storedSize))) {
          throw new DeliveryError('quota', 'mailbox quota exceeded');
        }
        const spam = isSpam(mailbox);
        const row = messageRowOf(parsed, {
          mailboxId: mailbox.id,
          rawId,
          folder: spam ? 'junk' : 'inbox',
          envelopeFrom: envelope.mailFrom,
          receivedAt: now,
          size: storedSize,
          snippet,
          code,
          auth,
        });
        rows.push(row);
      }
      // UIDs for the whole batch: one reservation per mailbox folder (folder-repo.ts).
      const ids = await insertMessages(trx, rows);
      if (afterStore) await afterStore(trx, ids);
      if (options.beforeCommit && !(await options.beforeCommit(trx))) throw new CommitDeclined();
      await events.announceInTransaction(trx, ids);
      return ids;
    };
    // SQLite: messages arriving together share one commit (one fsync); PostgreSQL commits each
    // in its own connection and needs no help.
    return slot ? slot.run(transaction) : db.transaction().execute(transaction);
  }
}

export type InboundService = ReturnType<typeof createInboundService>;

/**
 * The `messages` row of a parsed message in one mailbox folder (SMTP delivery, IMAP APPEND), NUL
 * characters removed (see withoutNul).
 */
export function messageRowOf(
  parsed: ParsedMail,
  at: {
    mailboxId: number;
    rawId: number;
    folder: FolderName;
    envelopeFrom: string;
    receivedAt: number;
    size: number;
    snippet?: string;
    code?: string | null;
    /** JSON MessageAuth of mail from the network (inbound-auth.ts); null when not checked */
    auth?: string | null;
    read?: number;
    starred?: number;
    flags?: number;
    keywords?: string;
  },
): NewMessageInFolder {
  return withoutNul({
    mailbox_id: at.mailboxId,
    folder: at.folder,
    raw_id: at.rawId,
    envelope_from: at.envelopeFrom.slice(0, 320),
    from_name: (parsed.from?.name ?? '').slice(0, 320),
    from_address: (parsed.from?.address ?? at.envelopeFrom).slice(0, 320),
    subject: parsed.subject,
    snippet: at.snippet ?? snippetOf(parsed.text ?? ''),
    text_body: parsed.text,
    html_body: parsed.html,
    to_json: JSON.stringify(parsed.to),
    cc_json: JSON.stringify(parsed.cc),
    attachments_json: JSON.stringify(parsed.attachments),
    message_id: parsed.messageId,
    sent_at: parsed.date,
    received_at: at.receivedAt,
    size: at.size,
    read: at.read ?? 0,
    starred: at.starred ?? 0,
    spam: at.folder === 'junk' ? 1 : 0,
    has_attachments: parsed.attachments.some((a) => !a.inline) ? 1 : 0,
    parse_error: parsed.error,
    code: at.code === undefined ? findVerificationCode(parsed) : at.code,
    auth: at.auth ?? null,
    flags: at.flags ?? 0,
    keywords: at.keywords ?? '',
  });
}

/**
 * The row with NUL characters removed from its text. PostgreSQL's text type cannot hold U+0000, so
 * a NUL in a header or body would fail the insert, and every retry of the message with it (451
 * forever); the raw message keeps the bytes as sent.
 */
function withoutNul<T extends object>(row: T): T {
  const clean = { ...row } as Record<string, unknown>;
  for (const [key, value] of Object.entries(clean)) {
    if (typeof value === 'string' && value.includes('\0')) clean[key] = value.replaceAll('\0', '');
  }
  return clean as T;
}

/**
 * The list preview: the first 200 characters of the text, without the bracketed link and image
 * targets that mailparser's HTML-to-text conversion leaves in (`[http://…]`, `[cid:…]`).
 */
export function snippetOf(text: string): string {
  // The preview needs 200 characters; cleaning a long body whole would cost more than parsing it.
  return text
    .slice(0, 4_000)
    .replace(/\[(?:https?:|cid:|mailto:)[^\]\s]*\]/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
}
