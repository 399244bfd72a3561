import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  type Delivery,
  type DeliveryStatus,
  ErrorCode,
  type PageOf,
  type PageQuery,
  type SendEmailBody,
  type SendEmailData,
  type SentDetail,
  type SentItem,
} from '@youju/contract';
import type { Kysely } from 'kysely';
import type { Engine } from '../../db/database.js';
import { requireSynchronousCommit } from '../../db/durability.js';
import { findDomainByName, listActiveDomainNamesAmong } from '../../db/repositories/domain-repo.js';
import { findMailboxById } from '../../db/repositories/mailbox-repo.js';
import { findScopedRawIdByMessageId, type MailboxScope } from '../../db/repositories/message-repo.js';
import {
  deleteDeliveriesOfSentMessages,
  insertDeliveries,
  listDeliveriesOfSentMessages,
} from '../../db/repositories/outbound-queue-repo.js';
import {
  countSentMessages,
  deleteSentMessages,
  findSentMessage,
  findSentMessageChunk,
  findSentMessageIds,
  insertSentMessage,
  insertSentMessageChunk,
  listSentMessages,
  type SentMessageScope,
} from '../../db/repositories/sent-message-repo.js';
import type { Database, OutboundQueueRow, SentMessageRow } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import { createDatabaseRateLimits } from '../../lib/database-rate-limits.js';
import { pageOf } from '../../lib/paging.js';
import type { RateLimit } from '../../lib/rate-limiter.js';
import { DAY, HOUR, toIso } from '../../lib/time.js';
import { readHeaderBlock } from '../../protocols/mime/header-block.js';
import type { DkimService } from '../dkim/index.js';
import { refusePendingDomain } from '../domains/index.js';
import { parseMail, readRaw } from '../mail/index.js';
import type { AuthContext } from '../sessions/index.js';
import type { PersonalSettingsService, SettingsService } from '../settings/index.js';
import { copyFileToChunks, streamChunks } from './chunks.js';
import { composeToFile, type SignedMessage, signToFile } from './compose.js';
import type { DraftService } from './draft-service.js';
import { readSubmittedMessage } from './submitted-message.js';

const NOT_FOUND = '已发送邮件不存在或已被删除';
/** Recipients of one message, To, Cc and Bcc together (RFC 5321 section 4.5.3.1.8 asks for 100). */
export const MAX_RECIPIENTS = 100;
const TOO_MANY_RECIPIENTS = `收件人（含抄送、密送）合计不能超过 ${MAX_RECIPIENTS} 个`;
/** References kept when answering a long thread (the first and the latest ones matter most). */
const MAX_REFERENCES = 20;
/** Bodies longer than this are kept only in the raw message, not in the sent item's columns. */
const MAX_STORED_BODY_CHARS = 2 * 1024 * 1024;

export interface Sender {
  address: string;
  domain: string;
  accountId: number | null;
  mailboxId: number | null;
  /**
   * A mailbox nobody vouches for (a one-click temporary mailbox or one a visitor registered): it
   * sends only to the service's own domains unless the operator allows more (`anonymousSend`).
   */
  anonymous: boolean;
}

/** Mailboxes that anyone can get without paying or being given one (auth-service regEmail). */
const VISITOR_SOURCES = new Set(['temporary', 'register']);

/**
 * A mailbox nobody vouches for: temporary (no password) or registered by a visitor. It reaches only
 * the service's own domains unless `anonymousSend` is on.
 */
export function isAnonymousMailbox(mailbox: { passwordless: boolean; source: string }): boolean {
  return mailbox.passwordless || isVisitorMailbox(mailbox.source);
}

/**
 * A mailbox a visitor made for itself (regEmail: temporary or with a password). Forwarding asks
 * only this: an address the domain's owner created has no password either (its mail is read by the
 * owner), but the owner vouches for it.
 */
export function isVisitorMailbox(source: string): boolean {
  return VISITOR_SOURCES.has(source);
}

/** The database counters of `sendPerHour` and `sendPerDay`, keyed `mailbox:<id>` or `account:<id>`. */
export const SEND_COUNTERS = { hour: 'sends-hour', day: 'sends-day' } as const;

function normalizeAddress(address: string): string {
  return address.trim().toLowerCase();
}

function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1);
}

function parseList(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.map(String) : [];
  } catch {
    return [];
  }
}

function formatBytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}

/** A Message-ID as stored and compared: with angle brackets (RFC 5322 section 3.6.4 msg-id). */
function bracketed(messageId: string): string {
  const bare = messageId.trim().replace(/^<|>$/g, '');
  return bare ? `<${bare}>` : '';
}

/**
 * The overall state of a sent message from its recipients' states: still moving while any is
 * on its way, otherwise failed when any failed, otherwise delivered.
 */
export function overallStatus(statuses: DeliveryStatus[]): DeliveryStatus {
  for (const status of ['sending', 'queued', 'retrying', 'failed'] as const) {
    if (statuses.includes(status)) return status;
  }
  return 'delivered';
}

function deliveryView(row: OutboundQueueRow): Delivery {
  return {
    rcpt: row.rcpt,
    status: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
    nextAttemptAt: row.status === 'retrying' || row.status === 'queued' ? toIso(row.next_attempt_at) : null,
    remoteResponse: row.remote_response,
    deliveredAt: toIso(row.delivered_at),
  };
}

function itemView(row: SentMessageRow, deliveries: OutboundQueueRow[]): SentItem {
  const views = deliveries.map(deliveryView);
  return {
    id: row.id,
    from: row.from_address,
    to: parseList(row.to_json),
    cc: parseList(row.cc_json),
    bcc: parseList(row.bcc_json),
    subject: row.subject,
    status: overallStatus(views.map((delivery) => delivery.status)),
    createdAt: toIso(row.created_at),
    size: row.size,
    hasAttachments: parseList(row.attachments_json).length > 0,
    messageId: row.message_id,
    deliveries: views,
  };
}

/** The msg-ids of a References (or In-Reply-To) header in a header block, unfolded. */
export function headerMessageIds(block: string, name: string): string[] {
  const unfolded = block.replace(/\r?\n[ \t]+/g, ' ');
  const line = unfolded
    .split(/\r?\n/)
    .find((candidate) => candidate.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  if (!line) return [];
  return line.slice(name.length + 1).match(/<[^<>\s]+>/g) ?? [];
}

export interface SendingDeps {
  db: Kysely<Database>;
  engine: Engine;
  dataDir: string;
  settings: SettingsService;
  dkim: DkimService;
  /** attachments (uploads and those of drafts) and the draft a sent message was written in */
  drafts: DraftService;
  personal: PersonalSettingsService;
  /** wakes the delivery worker after a commit */
  onQueued(): void;
}

/**
 * The sent folder and sendEmail: who may send from which address, sending limits,
 * composing and signing, and the durable hand-over to the outbound queue. Delivery itself is the
 * worker's (delivery-worker.ts).
 */
export function createSendingService(deps: SendingDeps) {
  const { db, engine, settings, dkim, drafts, personal } = deps;
  const spoolDir = join(deps.dataDir, 'tmp');

  /**
   * Who may use `from`: a mailbox session only its own address; a user any
   * address on the domains it owns; an administrator any domain of the service.
   */
  async function senderFor(auth: AuthContext, from: string): Promise<Sender> {
    const address = normalizeAddress(from);
    const domainName = domainOf(address);
    const refuse = () =>
      ApiError.forbidden(
        auth.role === 'mailbox'
          ? `不能以 ${address} 的名义发信：邮箱用户只能用自己的地址发件`
          : `不能以 ${address} 的名义发信：发件人必须是你名下域名的地址`,
      );
    if (auth.role === 'mailbox') {
      const mailbox = await findMailboxById(db, auth.mailboxId ?? -1);
      if (!mailbox || mailbox.address.toLowerCase() !== address) throw refuse();
      return {
        address,
        domain: domainName,
        accountId: mailbox.owner_id,
        mailboxId: mailbox.id,
        anonymous: isAnonymousMailbox({
          passwordless: mailbox.password_hash === null,
          source: mailbox.source,
        }),
      };
    }
    const domain = await findDomainByName(db, domainName);
    if (!domain || (auth.role !== 'admin' && domain.owner_id !== auth.accountId)) throw refuse();
    // A claim is not ownership: nobody sends as a domain before its TXT record proved it theirs.
    refusePendingDomain({ name: domainName, status: domain.status });
    return { address, domain: domainName, accountId: auth.accountId, mailboxId: null, anonymous: false };
  }

  /**
   * An anonymous sender (a temporary or visitor-registered mailbox) reaches only addresses on the
   * service's own active domains, unless `anonymousSend` is on. Otherwise a one-click mailbox would
   * be a free, untraceable spam cannon pointed at the whole internet.
   */
  async function checkRecipientsAllowed(sender: Sender, recipients: string[]): Promise<void> {
    if (!sender.anonymous || (await settings.get()).anonymousSend) return;
    const domains = [...new Set(recipients.map(domainOf))];
    const localNames = new Set(await listActiveDomainNamesAmong(db, domains));
    const outside = recipients.filter((recipient) => !localNames.has(domainOf(recipient)));
    if (outside.length > 0) {
      throw ApiError.forbidden(
        `临时邮箱和自助注册的邮箱只能发信给本站域名的地址，不能发送到 ${outside.slice(0, 3).join('、')}${outside.length > 3 ? ' 等' : ''}；如需对外发信请使用正式邮箱`,
      );
    }
  }

  // Sends are counted apart from the sent folder (deleting sent items must not refill the
  // allowance) and in the database on both engines (a restart must not either).
  const sendCounters = createDatabaseRateLimits(db);
  const sendsPerHour = sendCounters(SEND_COUNTERS.hour, HOUR);
  const sendsPerDay = sendCounters(SEND_COUNTERS.day, DAY);

  /**
   * Takes one message from the sender's `sendPerHour` and `sendPerDay` allowance (0 = no limit;
   * administrators have none) and returns how to give it back if the message is not sent after all.
   * Each count is one atomic increment that returns the new total, so of a parallel burst exactly
   * the allowance gets through.
   */
  async function reserveSend(
    role: AuthContext['role'],
    sender: Sender,
    limits: { sendPerHour: number; sendPerDay: number },
  ): Promise<() => Promise<void>> {
    if (role === 'admin') return async () => {};
    const key = sender.mailboxId !== null ? `mailbox:${sender.mailboxId}` : `account:${sender.accountId}`;
    const taken: RateLimit[] = [];
    const giveBack = async () => {
      for (const counter of taken) await counter.release(key);
    };
    const checks: [RateLimit, number, string, number][] = [
      [
        sendsPerHour,
        limits.sendPerHour,
        `发信过于频繁：每小时最多发送 ${limits.sendPerHour} 封，请稍后再发`,
        600,
      ],
      [
        sendsPerDay,
        limits.sendPerDay,
        `今天的发信数量已达上限（每天 ${limits.sendPerDay} 封），请明天再发`,
        3600,
      ],
    ];
    for (const [counter, limit, message, retryAfter] of checks) {
      if (limit <= 0) continue;
      taken.push(counter);
      if ((await counter.hit(key)) > limit) {
        await giveBack();
        throw ApiError.tooMany(message, retryAfter);
      }
    }
    return giveBack;
  }

  /** In-Reply-To and References of an answer (RFC 5322 section 3.6.4), from the original if we hold it. */
  async function threadOf(auth: AuthContext, inReplyTo: string | undefined) {
    const parent = inReplyTo ? bracketed(inReplyTo) : '';
    if (!parent) return { inReplyTo: null, references: [] as string[] };
    const bare = parent.slice(1, -1);
    const scope: MailboxScope =
      auth.role === 'mailbox'
        ? { kind: 'mailbox', mailboxId: auth.mailboxId ?? -1 }
        : auth.role === 'user'
          ? { kind: 'owner', ownerId: auth.accountId ?? -1 }
          : { kind: 'all' };
    const originalRawId = await findScopedRawIdByMessageId(db, scope, [parent, bare]);
    let earlier: string[] = [];
    if (originalRawId !== undefined) {
      const block = (await readHeaderBlock(readRaw(db, originalRawId))).toString('latin1');
      earlier = headerMessageIds(block, 'References');
      if (earlier.length === 0) earlier = headerMessageIds(block, 'In-Reply-To');
    }
    const references = [...earlier.filter((id) => id !== parent), parent];
    const trimmed =
      references.length > MAX_REFERENCES
        ? [references[0] as string, ...references.slice(-(MAX_REFERENCES - 1))]
        : references;
    return { inReplyTo: parent, references: trimmed };
  }

  /** A mailbox sees what it sent, a user what its account sent, an administrator everything. */
  function scopeOf(auth: AuthContext): SentMessageScope {
    if (auth.role === 'mailbox') return { kind: 'mailbox', mailboxId: auth.mailboxId ?? -1 };
    if (auth.role === 'user') return { kind: 'account', accountId: auth.accountId ?? -1 };
    return { kind: 'all' };
  }

  async function deliveriesOf(ids: number[]): Promise<Map<number, OutboundQueueRow[]>> {
    const map = new Map<number, OutboundQueueRow[]>();
    if (ids.length === 0) return map;
    const rows = await listDeliveriesOfSentMessages(db, ids);
    for (const row of rows) map.set(row.sent_id, [...(map.get(row.sent_id) ?? []), row]);
    return map;
  }

  async function loadOne(auth: AuthContext, id: number): Promise<SentMessageRow> {
    const row = await findSentMessage(db, scopeOf(auth), id);
    if (!row) throw ApiError.notFound(NOT_FOUND);
    return row;
  }

  /** sendEmail once the sender may send: compose, sign, and hand the message to the queue durably. */
  async function compose(
    auth: AuthContext,
    body: SendEmailBody,
    sender: Sender,
    { to, cc, bcc, recipients }: { to: string[]; cc: string[]; bcc: string[]; recipients: string[] },
  ): Promise<SendEmailData> {
    const attachmentRows = await drafts.attachments(auth, body.attachments ?? []);
    const { maxMessageBytes } = await settings.get();
    // Base64 grows attachments by a third (RFC 2045 section 6.8): refuse early what cannot fit.
    const estimate =
      attachmentRows.reduce((sum, file) => sum + Math.ceil(file.size / 3) * 4, 0) +
      Buffer.byteLength(body.html ?? '') * 2 +
      Buffer.byteLength(body.text ?? '');
    const tooLarge = () =>
      new ApiError(
        ErrorCode.tooLarge,
        `邮件过大：编码后的邮件不能超过 ${formatBytes(maxMessageBytes)}（附件经 Base64 编码后约增大三分之一），请减少附件后再发`,
      );
    if (estimate > maxMessageBytes) throw tooLarge();

    const thread = await threadOf(auth, body.inReplyTo);
    const keys = await dkim.signingKeysFor(sender.domain);
    // The display name the caller chose in /user/setting goes into From.
    const { displayName } =
      auth.role === 'mailbox'
        ? await personal.get('mailbox', auth.mailboxId ?? -1)
        : await personal.get('system', auth.accountId ?? -1);
    const composed = await composeToFile(
      {
        from: sender.address,
        fromName: displayName,
        to,
        cc,
        bcc,
        subject: body.subject,
        html: body.html?.trim() ? body.html : null,
        text: body.text?.trim() ? body.text : null,
        attachments: attachmentRows,
        inReplyTo: thread.inReplyTo,
        references: thread.references,
        date: new Date(),
      },
      keys,
      spoolDir,
    );
    try {
      if (composed.size > maxMessageBytes) throw tooLarge();
      const id = await storeAndQueue(sender, composed, {
        to,
        cc,
        bcc,
        recipients,
        subject: body.subject,
        text: composed.text,
        html: body.html?.trim() ? body.html : null,
        attachments: attachmentRows.map((file) => ({
          filename: file.filename,
          contentType: file.contentType,
          size: file.size,
        })),
        messageId: composed.messageId,
      });
      return { id, status: 'queued' };
    } finally {
      await rm(composed.path, { force: true });
    }
  }

  /**
   * The durable hand-over shared by sendEmail and SMTP submission: the sent item with its chunks and
   * one outbound-queue row per recipient in one transaction, then the delivery worker is woken.
   */
  async function storeAndQueue(
    sender: Sender,
    file: SignedMessage,
    item: {
      to: string[];
      cc: string[];
      bcc: string[];
      recipients: string[];
      subject: string;
      text: string;
      html: string | null;
      attachments: { filename: string; contentType: string; size: number }[];
      messageId: string;
    },
  ): Promise<number> {
    const now = Date.now();
    const id = await db.transaction().execute(async (trx) => {
      // A crash after the answer must not lose the message (as for received mail).
      await requireSynchronousCommit(trx, engine);
      const sentId = await insertSentMessage(trx, {
        account_id: sender.accountId,
        mailbox_id: sender.mailboxId,
        from_address: sender.address,
        to_json: JSON.stringify(item.to),
        cc_json: JSON.stringify(item.cc),
        bcc_json: JSON.stringify(item.bcc),
        subject: item.subject,
        text_body: item.text.slice(0, MAX_STORED_BODY_CHARS),
        html_body: item.html ? item.html.slice(0, MAX_STORED_BODY_CHARS) : null,
        attachments_json: JSON.stringify(item.attachments),
        message_id: item.messageId,
        recipient_count: item.recipients.length,
        size: file.size,
        sha256: file.sha256,
        created_at: now,
      });
      await copyFileToChunks(file.path, file.size, (seq, data) =>
        insertSentMessageChunk(trx, sentId, seq, data),
      );
      await insertDeliveries(
        trx,
        item.recipients.map((rcpt) => ({
          sent_id: sentId,
          rcpt,
          status: 'queued' as const,
          attempts: 0,
          next_attempt_at: now,
          created_at: now,
          updated_at: now,
        })),
      );
      return sentId;
    });
    deps.onQueued();
    return id;
  }

  /** The sender a mailbox logged in over SMTP submission is (its own address, nothing else). */
  async function mailboxSender(mailboxId: number): Promise<Sender> {
    const mailbox = await findMailboxById(db, mailboxId);
    if (!mailbox) throw ApiError.forbidden('邮箱不存在或已被删除');
    const address = normalizeAddress(mailbox.address);
    return {
      address,
      domain: domainOf(address),
      accountId: mailbox.owner_id,
      mailboxId: mailbox.id,
      anonymous: isAnonymousMailbox({ passwordless: mailbox.password_hash === null, source: mailbox.source }),
    };
  }

  /**
   * A message a mail client submitted (RFC 6409), already received whole into `path`: the From
   * field must name the sender's own address and nothing else (RFC 6409 section 8 lets the server
   * enforce it), the sending limits are taken as for sendEmail, Bcc is removed and Message-ID and
   * Date added when missing, then it is DKIM-signed, recorded in the sent folder and queued for
   * `recipients` (the envelope's) in one transaction, exactly like sendEmail's messages. Resolves
   * only once that committed.
   */
  async function submitRaw(
    sender: Sender,
    envelope: { recipients: string[] },
    spooled: { path: string; size: number },
  ): Promise<{ id: number; messageId: string }> {
    const recipients = [...new Set(envelope.recipients.map(normalizeAddress))];
    if (recipients.length === 0) throw ApiError.badRequest('请至少填写一个收件人');
    if (recipients.length > MAX_RECIPIENTS) throw ApiError.badRequest(TOO_MANY_RECIPIENTS);
    const message = await readSubmittedMessage(spooled.path, spooled.size, sender.domain, new Date());
    if (message.from.length !== 1 || message.from[0] !== sender.address) {
      throw ApiError.forbidden(`信头 From 必须是你自己的地址 ${sender.address}`);
    }
    await checkRecipientsAllowed(sender, recipients);
    const limits = await settings.get();
    const giveBack = await reserveSend('mailbox', sender, limits);
    let signed: SignedMessage | null = null;
    try {
      signed = await signToFile(
        message.open(),
        await dkim.signingKeysFor(sender.domain),
        spoolDir,
        sender.domain,
      );
      if (signed.size > limits.maxMessageBytes) {
        throw new ApiError(ErrorCode.tooLarge, `邮件过大：不能超过 ${formatBytes(limits.maxMessageBytes)}`);
      }
      const parsed = await parseMail(signed.path);
      const listed = (people: { address: string }[]) =>
        people.map((person) => normalizeAddress(person.address));
      const to = listed(parsed.to);
      const cc = listed(parsed.cc);
      const shown = new Set([...to, ...cc]);
      const id = await storeAndQueue(sender, signed, {
        to,
        cc,
        bcc: recipients.filter((rcpt) => !shown.has(rcpt)),
        recipients,
        subject: parsed.subject,
        text: parsed.text ?? '',
        html: parsed.html,
        attachments: parsed.attachments.map((attachment) => ({
          filename: attachment.filename,
          contentType: attachment.contentType,
          size: attachment.size,
        })),
        messageId: message.messageId,
      });
      return { id, messageId: message.messageId };
    } catch (error) {
      await giveBack();
      throw error;
    } finally {
      if (signed) await rm(signed.path, { force: true });
    }
  }

  /**
   * Writes submitted DATA to a spool file before anything is decided (the message must be complete
   * to be checked and signed); the caller removes it with `discardSubmission` once done.
   */
  async function spoolSubmission(source: Readable): Promise<{ path: string; size: number }> {
    await mkdir(spoolDir, { recursive: true });
    const path = join(spoolDir, `submission-${Date.now()}-${randomUUID()}.eml`);
    let size = 0;
    try {
      await pipeline(
        source,
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            size += chunk.length;
            yield chunk;
          }
        },
        createWriteStream(path),
      );
    } catch (error) {
      await rm(path, { force: true });
      throw error;
    }
    return { path, size };
  }

  return {
    senderFor,
    mailboxSender,
    spoolSubmission,
    discardSubmission: (spooled: { path: string }) => rm(spooled.path, { force: true }),
    checkRecipientsAllowed,
    submitRaw,

    async send(auth: AuthContext, body: SendEmailBody): Promise<SendEmailData> {
      const sender = await senderFor(auth, body.from);
      const to = body.to.map(normalizeAddress);
      const cc = (body.cc ?? []).map(normalizeAddress);
      const bcc = (body.bcc ?? []).map(normalizeAddress);
      const recipients = [...new Set([...to, ...cc, ...bcc])];
      if (recipients.length === 0) throw ApiError.badRequest('请至少填写一个收件人');
      if (recipients.length > MAX_RECIPIENTS) throw ApiError.badRequest(TOO_MANY_RECIPIENTS);
      if (!body.html?.trim() && !body.text?.trim() && !body.subject.trim() && !body.attachments?.length) {
        throw ApiError.badRequest('邮件是空的：请填写主题、正文或添加附件');
      }
      await checkRecipientsAllowed(sender, recipients);
      const giveBack = await reserveSend(auth.role, sender, await settings.get());
      let queued: SendEmailData;
      try {
        queued = await compose(auth, body, sender, { to, cc, bcc, recipients });
      } catch (error) {
        await giveBack();
        throw error;
      }
      // Sent: the draft it was written in is done (after the commit, so a failure keeps it).
      if (body.draftId !== undefined) await drafts.sent(auth, body.draftId);
      return queued;
    },

    async list(auth: AuthContext, query: PageQuery): Promise<PageOf<SentItem>> {
      return pageOf(query, async (limit, offset) => {
        const scope = scopeOf(auth);
        const [rows, total] = await Promise.all([
          listSentMessages(db, scope, { limit, offset }),
          countSentMessages(db, scope),
        ]);
        const deliveries = await deliveriesOf(rows.map((row) => row.id));
        return { rows: rows.map((row) => itemView(row, deliveries.get(row.id) ?? [])), total };
      });
    },

    async detail(auth: AuthContext, id: number): Promise<SentDetail> {
      const row = await loadOne(auth, id);
      const deliveries = await deliveriesOf([row.id]);
      let attachments: SentDetail['attachments'] = [];
      try {
        attachments = JSON.parse(row.attachments_json) as SentDetail['attachments'];
      } catch {
        attachments = [];
      }
      return {
        ...itemView(row, deliveries.get(row.id) ?? []),
        html: row.html_body,
        text: row.text_body,
        attachments,
      };
    },

    /** The signed message as it was sent (download), streamed from the database. */
    async raw(auth: AuthContext, id: number): Promise<{ size: number; stream: () => Readable }> {
      const row = await loadOne(auth, id);
      return { size: row.size, stream: () => content(row.id) };
    },

    /** Deletes sent items; deliveries still queued for them are cancelled with them. */
    async remove(auth: AuthContext, ids: number[]): Promise<number> {
      const owned = await findSentMessageIds(db, scopeOf(auth), ids);
      if (owned.length === 0) {
        throw ApiError.notFound(NOT_FOUND);
      }
      await db.transaction().execute(async (trx) => {
        await deleteDeliveriesOfSentMessages(trx, owned);
        await deleteSentMessages(trx, owned);
      });
      return owned.length;
    },

    content,
  };

  function content(sentId: number): Readable {
    return streamChunks((seq) => findSentMessageChunk(db, sentId, seq));
  }
}

export type SendingService = ReturnType<typeof createSendingService>;
