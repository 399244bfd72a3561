import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { OutboundConfig } from '../../config.js';
import { activeDomainNameExists } from '../../db/repositories/domain-repo.js';
import {
  findDeliveryAttempts,
  type LeasedDelivery,
  leaseDueDeliveries,
  listDueDeliveries,
  listLeasedDeliveries,
  type OutboundQueueChanges,
  recordDeliveryIfLeased,
} from '../../db/repositories/outbound-queue-repo.js';
import type { Database } from '../../db/schema.js';
import type { DeliveryAttemptResult } from '../../lib/metrics.js';
import { failureStatus } from '../../protocols/dsn/delivery-status.js';
import { type AttemptOutcome, MAX_RECIPIENTS_PER_TRANSACTION } from '../../protocols/smtp/smtp-client.js';
import { Replies, replyLine } from '../../protocols/smtp/smtp-reply.js';
import { DeliveryError, type DeliveryFailure, type InboundService } from '../mail/index.js';
import type { SettingsService } from '../settings/index.js';
import { createBounceNotifier } from './bounce-notifier.js';
import { createResolver } from './mx-route.js';
import { deliverRemote, parseRelayUrl } from './smtp-delivery.js';

/** Rows one poll looks at, and transactions one process runs at the same time. */
const BATCH = 200;
const CONCURRENCY = 8;
const INTERRUPTED = '投递因服务停止而中断';

interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/**
 * What a local recipient's store answered, in SMTP terms for the sent list (RFC 3463 codes); the
 * bounce quotes the reply our own SMTP server gives for the same failure.
 */
function localFailure(failure: DeliveryFailure, rcpt: string): AttemptOutcome {
  switch (failure) {
    case 'no-recipients':
      return {
        kind: 'permanent',
        error: `550 5.1.1 本站没有收件人 ${rcpt}（邮箱不存在、已停用或已过期）`,
        reply: replyLine(Replies.unknownRecipient(rcpt)),
      };
    case 'rejected':
      return {
        kind: 'permanent',
        error: '550 5.7.1 收件人的内容过滤规则拒收了这封邮件',
        reply: replyLine(Replies.rejectedByFilter()),
      };
    case 'auth-rejected':
      return {
        kind: 'permanent',
        error: '550 5.7.1 发件域的 DMARC 策略要求拒收这封邮件',
        reply: replyLine(Replies.rejectedByDmarc()),
      };
    case 'limits':
      return {
        kind: 'permanent',
        error: '552 5.3.4 邮件结构超出本站限制',
        reply: replyLine(Replies.structureTooLarge('MIME structure')),
      };
    case 'quota':
      return {
        kind: 'temporary',
        error: '452 4.2.2 收件人邮箱已满',
        reply: replyLine(Replies.mailboxFull()),
      };
    case 'storage-full':
    case 'storage':
      return {
        kind: 'temporary',
        error: '451 4.3.0 本站存储暂时不可用',
        reply: replyLine(Replies.storageFailed()),
      };
  }
}

/** A queue row this process holds, with what delivering it needs. */
type ClaimedRow = LeasedDelivery;

function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}

/**
 * Groups due rows into transactions: the recipients of one message at one domain share the MX,
 * so they go in one connection and one transaction with a RCPT each (RFC 5321 section 3.3), at
 * most MAX_RECIPIENTS_PER_TRANSACTION at a time. Groups keep the order of their first row.
 */
export function transactions(rows: Array<{ id: number; sent_id: number; rcpt: string }>): number[][] {
  const groups = new Map<string, number[][]>();
  const ordered: number[][] = [];
  for (const row of rows) {
    const key = `${row.sent_id} ${domainOf(row.rcpt)}`;
    const chunks = groups.get(key) ?? [];
    let last = chunks.at(-1);
    if (!last || last.length >= MAX_RECIPIENTS_PER_TRANSACTION) {
      last = [];
      chunks.push(last);
      ordered.push(last);
      groups.set(key, chunks);
    }
    last.push(row.id);
  }
  return ordered;
}

export interface DeliveryWorkerDeps {
  db: Kysely<Database>;
  config: { dnsServers: string[]; relayUrl: string | null; mailHostname: string; outbound: OutboundConfig };
  settings: SettingsService;
  inbound: InboundService;
  /** the signed bytes of a sent message */
  content(sentId: number): Readable;
  log: Logger;
  /** told of each recipient's attempt once its outcome is known (the delivery-attempt metric) */
  onAttempt?: (result: DeliveryAttemptResult) => void;
}

/**
 * The outbound queue's worker. Every server process runs one; they share the queue through the
 * database. Due rows of one message and one recipient domain form a transaction (`transactions`).
 * Its rows are taken with one conditional UPDATE (status due, or a lease that ran out) under one
 * lease; each row goes to exactly one process, and a process delivers only the rows it won (the
 * others of the group may be with another process). A process killed mid-delivery leaves its
 * rows "sending" until the lease expires, then any process takes them again. Each recipient's
 * answer is recorded on its own row; once a server answers 250 the row is marked delivered, so it
 * is never sent again by choice; only a crash between that 250 and the database write can repeat
 * a delivery (RFC 5321 section 6.1 accepts duplicates over losses).
 */
export function createDeliveryWorker(deps: DeliveryWorkerDeps) {
  const { db, config, settings, inbound, log } = deps;
  const { outbound } = config;
  const resolver = createResolver(config.dnsServers);
  const bounces = createBounceNotifier({
    db,
    inbound,
    content: deps.content,
    mailHostname: config.mailHostname,
    leaseMs: outbound.leaseMs,
    retryDelaysMs: outbound.retryDelaysMs,
    log,
  });
  const stopController = new AbortController();
  let timer: NodeJS.Timeout | null = null;
  let kickTimer: NodeJS.Timeout | null = null;
  let current: Promise<void> | null = null;
  let again = false;
  let stopped = true;

  /**
   * Takes the due rows among `ids` for this process in one conditional UPDATE under one lease, and
   * returns the rows it won: another process (or an earlier poll) may hold some, and those are
   * neither delivered nor recorded here.
   */
  async function claim(ids: number[]): Promise<{ lease: string; rows: ClaimedRow[] }> {
    const now = Date.now();
    const lease = randomUUID();
    await leaseDueDeliveries(db, ids, { owner: lease, until: now + outbound.leaseMs, now });
    const rows = await listLeasedDeliveries(db, ids, lease);
    return { lease, rows };
  }

  async function relay() {
    const text = config.relayUrl ?? ((await settings.get()).relayUrl || null);
    if (!text) return null;
    try {
      return parseRelayUrl(text);
    } catch {
      throw new Error('中继地址无效，请管理员检查发信中继设置');
    }
  }

  async function isLocal(domain: string): Promise<boolean> {
    // Only an active domain is ours: a pending one is a claim nobody has proven (its `_youju` TXT
    // record not yet verified), so mail to it goes to its real MX, not into the claimant's mailbox.
    return activeDomainNameExists(db, domain);
  }

  /** Local recipients are stored directly by the inbound service: no network hop, same filters. */
  async function deliverLocally(sentId: number, from: string, rcpt: string): Promise<AttemptOutcome> {
    const spool = await inbound.spool(deps.content(sentId));
    try {
      const result = await inbound.deliver(spool, {
        mailFrom: from,
        recipients: [rcpt],
        remoteAddress: '127.0.0.1',
      });
      return {
        kind: 'delivered',
        response: result.discarded
          ? '250 已被收件人的过滤规则丢弃'
          : `250 已投递到本站邮箱（${result.messageIds.join(',')}）`,
      };
    } catch (error) {
      if (error instanceof DeliveryError) return localFailure(error.failure, rcpt);
      throw error;
    }
  }

  /**
   * Delivers claimed rows of one message whose recipients share a domain, answering for each row
   * in order: local recipients one by one through the inbound store, remote ones in one SMTP
   * transaction with a RCPT per recipient.
   */
  async function attempt(rows: ClaimedRow[]): Promise<AttemptOutcome[]> {
    const [first] = rows;
    if (!first) return [];
    if (await isLocal(domainOf(first.rcpt))) {
      const outcomes: AttemptOutcome[] = [];
      for (const row of rows) outcomes.push(await deliverLocally(row.sentId, row.from, row.rcpt));
      return outcomes;
    }
    return deliverRemote(
      {
        from: first.from,
        recipients: rows.map((row) => row.rcpt),
        size: first.size,
        open: () => deps.content(first.sentId),
      },
      {
        resolver,
        mxPort: outbound.port,
        heloName: config.mailHostname,
        relay: await relay(),
        signal: stopController.signal,
      },
    );
  }

  /**
   * Records the outcome, only if the lease is still ours (the row may have been deleted). A final
   * failure sets the bounce pending in the same statement (bounce-notifier.ts), so it can neither
   * be forgotten nor come without the failure.
   */
  async function record(id: number, lease: string, outcome: AttemptOutcome): Promise<void> {
    const now = Date.now();
    const failed = (error: string, status: string): OutboundQueueChanges => ({
      status: 'failed',
      last_error: error,
      failure_status: status,
      bounce_state: 'pending',
      bounce_due_at: now,
    });
    let changes: OutboundQueueChanges;
    if (outcome.kind === 'delivered') {
      changes = {
        status: 'delivered',
        delivered_at: now,
        remote_response: outcome.response,
        last_error: null,
      };
    } else if (outcome.kind === 'permanent') {
      changes = failed(outcome.error, failureStatus({ ...outcome, expired: false }));
    } else if (stopController.signal.aborted) {
      // Shutting down is not the recipient's fault: the attempt does not count, retry at once.
      const row = await findDeliveryAttempts(db, id);
      changes = {
        status: 'retrying',
        attempts: Math.max(0, (row?.attempts ?? 1) - 1),
        next_attempt_at: now,
        last_error: INTERRUPTED,
      };
    } else {
      const row = await findDeliveryAttempts(db, id);
      const attempts = row?.attempts ?? 1;
      const delays = outbound.retryDelaysMs;
      const delay = delays[Math.min(attempts - 1, delays.length - 1)] ?? delays[delays.length - 1] ?? 60_000;
      const next = now + delay;
      changes =
        next - (row?.created_at ?? now) > outbound.maxAgeMs
          ? failed(
              `多次重试仍未送达，已放弃（共 ${attempts} 次）：${outcome.error}`,
              failureStatus({ expired: true }),
            )
          : { status: 'retrying', next_attempt_at: next, last_error: outcome.error };
    }
    // What the server said this time (nothing when none answered), for the bounce.
    const answer: OutboundQueueChanges =
      outcome.kind === 'temporary' && stopController.signal.aborted
        ? {}
        : { last_reply: outcome.reply ?? null, remote_mta: outcome.remoteMta ?? null };
    await recordDeliveryIfLeased(db, id, lease, { ...changes, ...answer, updated_at: now });
    // An attempt cut short by shutting down does not count, as above; one given up counts as failed.
    if (!(outcome.kind === 'temporary' && stopController.signal.aborted)) {
      deps.onAttempt?.(
        changes.status === 'delivered' ? 'delivered' : changes.status === 'failed' ? 'failed' : 'deferred',
      );
    }
  }

  async function work(ids: number[]): Promise<void> {
    const { lease, rows } = await claim(ids);
    if (rows.length === 0) return;
    let outcomes: AttemptOutcome[];
    try {
      outcomes = await attempt(rows);
    } catch (error) {
      const outcome: AttemptOutcome = {
        kind: 'temporary',
        error: `内部错误：${(error as Error).message}`.slice(0, 500),
      };
      outcomes = rows.map(() => outcome);
      log.error(
        `outbound: delivery ${rows.map((row) => row.id).join(',')} failed unexpectedly: ${(error as Error).message}`,
      );
    }
    for (const [index, row] of rows.entries()) {
      const outcome = outcomes[index] ?? { kind: 'temporary', error: '内部错误：没有投递结果' };
      await record(row.id, lease, outcome);
    }
  }

  async function poll(): Promise<void> {
    do {
      again = false;
      const due = await listDueDeliveries(db, Date.now(), BATCH);
      const groups = transactions(due);
      const lanes = Array.from({ length: Math.min(CONCURRENCY, groups.length) }, async () => {
        for (let group = groups.shift(); group !== undefined && !stopped; group = groups.shift()) {
          try {
            await work(group);
          } catch (error) {
            // The rows stay due (or under a lease that runs out): a later poll takes them.
            log.warn(
              `outbound: delivery ${group.join(',')} could not be claimed or recorded: ${(error as Error).message}`,
            );
          }
        }
      });
      await Promise.all(lanes);
      // After the deliveries, so the recipients of a message that failed in this poll share a bounce.
      if (!stopped) await bounces.run(() => stopped);
      if (due.length === BATCH) again = true;
    } while (again && !stopped);
  }

  function tick(): void {
    if (stopped) return;
    if (current) {
      again = true;
      return;
    }
    current = poll()
      .catch((error: unknown) => log.warn(`outbound: queue poll failed: ${(error as Error).message}`))
      .finally(() => {
        current = null;
      });
  }

  return {
    /** Starts polling; rows left queued, retrying or half-sent by an earlier run are taken up. */
    start(): void {
      if (!stopped) return;
      stopped = false;
      timer = setInterval(tick, outbound.pollMs);
      timer.unref();
      tick();
    },

    /** A message was queued: look now instead of at the next poll. */
    kick(): void {
      if (stopped || kickTimer) return;
      kickTimer = setTimeout(() => {
        kickTimer = null;
        tick();
      }, 0);
      kickTimer.unref();
    },

    /** Stops polling, interrupts connections in progress and waits until their rows are recorded. */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearInterval(timer);
      if (kickTimer) clearTimeout(kickTimer);
      timer = null;
      kickTimer = null;
      stopController.abort();
      await current;
    },
  };
}

export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>;
