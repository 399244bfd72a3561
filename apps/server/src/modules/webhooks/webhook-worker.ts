import { randomUUID } from 'node:crypto';
import type { Kysely, Updateable } from 'kysely';
import type { WebhookConfig } from '../../config.js';
import {
  deleteSettledWebhookDeliveriesBefore,
  type LeasedWebhookDelivery,
  leaseDueWebhookDeliveries,
  listDueWebhookDeliveries,
  listLeasedWebhookDeliveries,
  recordWebhookDeliveryIfLeased,
  recordWebhookOutcome,
} from '../../db/repositories/webhook-repo.js';
import type { Database, WebhookDeliveryTable } from '../../db/schema.js';
import type { WebhookDeliveryResult } from '../../lib/metrics.js';
import { type PostOutcome, safePost } from './safe-post.js';
import { eventTelegramText, mailPayload, signedHeaders, telegramText } from './webhook-payload.js';

/** Shortest time between two looks at the queue that new mail causes (see `kick`). */
const KICK_GAP_MS = 50;

/** Rows one poll claims, deliveries in flight per process, and per target host. */
const BATCH = 32;
const CONCURRENCY = 16;
const PER_HOST = 4;
/** The longest wait between two attempts. */
const MAX_DELAY_MS = 4 * 60 * 60 * 1000;
/** Settled deliveries stay in the log this long, and the log is pruned this often. */
const LOG_KEPT_MS = 30 * 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** A counting semaphore: at most `size` holders, the others wait in order. */
function semaphore(size: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (active >= size) await new Promise<void>((resolve) => waiting.push(resolve));
      active++;
      try {
        return await task();
      } finally {
        active--;
        waiting.shift()?.();
      }
    },
    /** nobody holds it and nobody waits */
    idle: () => active === 0 && waiting.length === 0,
  };
}

/** The wait after the `attempts`-th failure: base, then doubled each time, at most 4 hours. */
export function retryDelay(attempts: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_DELAY_MS);
}

/** The host a delivery goes to, for the per-host limit. */
function hostOf(delivery: LeasedWebhookDelivery, telegramApiUrl: string): string {
  try {
    return new URL(delivery.webhook.url ?? telegramApiUrl).host;
  } catch {
    return '';
  }
}

/** Telegram's own explanation of a refusal (`description`), never the URL (it holds the token). */
export function telegramError(body: string, statusCode: number): string {
  try {
    const parsed = JSON.parse(body) as { description?: unknown };
    if (typeof parsed.description === 'string') return `Telegram：${parsed.description.slice(0, 200)}`;
  } catch {
    // not JSON
  }
  return `Telegram 返回 HTTP ${statusCode}`;
}

/** Sends a Telegram message through the Bot API (`/bot<token>/sendMessage`). */
export function sendTelegram(
  config: Pick<WebhookConfig, 'telegramApiUrl' | 'timeoutMs'>,
  botToken: string,
  chatId: string,
  text: string,
  signal?: AbortSignal,
): Promise<PostOutcome> {
  const body = JSON.stringify({ chat_id: chatId, text, disable_web_page_preview: true });
  // The operator chose TELEGRAM_API_URL: it is not a user's target, so no address check.
  return safePost(
    `${config.telegramApiUrl}/bot${botToken}/sendMessage`,
    body,
    {},
    {
      allowPrivate: true,
      timeoutMs: config.timeoutMs,
      ...(signal ? { signal } : {}),
    },
  );
}

/**
 * The webhook queue's worker. Every server process runs one; they share `webhook_deliveries`
 * through the database. Due rows are taken with one conditional UPDATE under a lease, so each row
 * goes to one process at a time; a process killed mid-delivery leaves its rows leased until the
 * lease runs out, then any process takes them again (at least once: a receiver may see a delivery
 * twice, with the same X-Youju-Delivery). Each attempt is recorded on its row: a 2xx delivers it,
 * anything else retries after `retryDelay` until WEBHOOK_MAX_AGE_MS (24 h) has passed, then fails.
 */
export function createWebhookWorker(deps: {
  db: Kysely<Database>;
  config: WebhookConfig;
  log: Logger;
  onResult?: (result: WebhookDeliveryResult) => void;
}) {
  const { db, config, log } = deps;
  const stopController = new AbortController();
  const overall = semaphore(CONCURRENCY);
  const hosts = new Map<string, ReturnType<typeof semaphore>>();
  let timer: NodeJS.Timeout | null = null;
  let kickTimer: NodeJS.Timeout | null = null;
  let kickedAt = 0;
  let current: Promise<void> | null = null;
  let again = false;
  let stopped = true;
  let prunedAt = 0;

  function hostLimit(host: string) {
    let limit = hosts.get(host);
    if (!limit) {
      limit = semaphore(PER_HOST);
      hosts.set(host, limit);
    }
    return limit;
  }

  async function send(delivery: LeasedWebhookDelivery): Promise<PostOutcome | 'gone'> {
    const { webhook, message } = delivery;
    if (delivery.payload !== null) {
      // An event about something other than a message (order.created): its body was fixed when
      // it was queued.
      const payload = delivery.payload;
      if (webhook.kind === 'telegram') {
        return sendTelegram(
          config,
          webhook.secret,
          webhook.chat_id ?? '',
          eventTelegramText(payload, config.publicUrl),
          stopController.signal,
        );
      }
      return safePost(
        webhook.url ?? '',
        payload,
        signedHeaders(webhook.secret, delivery.event, delivery.deliveryKey, payload),
        { allowPrivate: config.allowPrivate, timeoutMs: config.timeoutMs, signal: stopController.signal },
      );
    }
    if (!message) return 'gone';
    if (webhook.kind === 'telegram') {
      return sendTelegram(
        config,
        webhook.secret,
        webhook.chat_id ?? '',
        telegramText(message, config.publicUrl),
        stopController.signal,
      );
    }
    const body = JSON.stringify(mailPayload(delivery.event, message));
    return safePost(
      webhook.url ?? '',
      body,
      signedHeaders(webhook.secret, delivery.event, delivery.deliveryKey, body),
      {
        allowPrivate: config.allowPrivate,
        timeoutMs: config.timeoutMs,
        signal: stopController.signal,
      },
    );
  }

  async function record(delivery: LeasedWebhookDelivery, lease: string, outcome: PostOutcome | 'gone') {
    const now = Date.now();
    let changes: Updateable<WebhookDeliveryTable>;
    let final: WebhookDeliveryResult | null = null;
    if (outcome === 'gone') {
      changes = { status: 'failed', last_error: '邮件已被删除，不再投递', response_code: null };
      final = 'failed';
    } else if (outcome.kind === 'response' && outcome.statusCode >= 200 && outcome.statusCode < 300) {
      changes = {
        status: 'delivered',
        delivered_at: now,
        response_code: outcome.statusCode,
        last_error: null,
        duration_ms: outcome.durationMs,
      };
      final = 'delivered';
    } else if (outcome.kind === 'error' && stopController.signal.aborted) {
      // Shutting down is not the receiver's fault: the attempt does not count, retry at once.
      changes = {
        attempts: Math.max(0, delivery.attempts - 1),
        next_attempt_at: now,
        last_error: outcome.error,
      };
    } else {
      const error =
        outcome.kind === 'error'
          ? outcome.error
          : delivery.webhook.kind === 'telegram'
            ? telegramError(outcome.body, outcome.statusCode)
            : `HTTP ${outcome.statusCode}`;
      const next = now + retryDelay(delivery.attempts, config.retryBaseMs);
      const code = outcome.kind === 'response' ? outcome.statusCode : null;
      // A private target is refused by policy: trying again would not change that.
      const giveUp =
        (outcome.kind === 'error' && outcome.refused) || next - delivery.createdAt > config.maxAgeMs;
      changes = giveUp
        ? {
            status: 'failed',
            response_code: code,
            last_error:
              outcome.kind === 'error' && outcome.refused ? error : `多次重试仍未成功，已放弃：${error}`,
            duration_ms: outcome.durationMs,
          }
        : { next_attempt_at: next, response_code: code, last_error: error, duration_ms: outcome.durationMs };
      if (giveUp) final = 'failed';
    }
    const interrupted = outcome !== 'gone' && outcome.kind === 'error' && stopController.signal.aborted;
    const answered =
      outcome === 'gone' || interrupted ? null : outcome.kind === 'response' ? outcome.statusCode : 0;
    const recorded = await recordWebhookDeliveryIfLeased(
      db,
      delivery.id,
      lease,
      { ...changes, updated_at: now },
      answered,
    );
    if (!recorded) return;
    if (outcome !== 'gone' && !interrupted) {
      await recordWebhookOutcome(db, delivery.webhook.id, {
        status: changes.status === 'delivered' ? 'delivered' : 'failed',
        responseCode: outcome.kind === 'response' ? outcome.statusCode : null,
        at: now,
      });
    }
    if (final) deps.onResult?.(final);
  }

  async function deliver(delivery: LeasedWebhookDelivery, lease: string): Promise<void> {
    let outcome: PostOutcome | 'gone';
    try {
      outcome = await send(delivery);
    } catch (error) {
      outcome = {
        kind: 'error',
        error: `内部错误：${(error as Error).message}`.slice(0, 300),
        durationMs: 0,
        refused: false,
      };
    }
    await record(delivery, lease, outcome);
  }

  /** Keeps the delivery log bounded: settled rows older than 30 days go (pending ones never). */
  async function prune(): Promise<void> {
    const now = Date.now();
    if (now - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = now;
    await deleteSettledWebhookDeliveriesBefore(db, now - LOG_KEPT_MS);
  }

  async function poll(): Promise<void> {
    await prune();
    do {
      again = false;
      const now = Date.now();
      const ids = await listDueWebhookDeliveries(db, now, BATCH);
      if (ids.length === 0) return;
      const lease = randomUUID();
      await leaseDueWebhookDeliveries(db, ids, { owner: lease, until: now + config.leaseMs, now });
      const rows = await listLeasedWebhookDeliveries(db, ids, lease);
      await Promise.all(
        rows.map((row) =>
          hostLimit(hostOf(row, config.telegramApiUrl)).run(() =>
            overall.run(async () => {
              try {
                if (stopped) {
                  // Not begun before the stop: hand the row back at once, its attempt not counted,
                  // rather than leaving it leased until the lease runs out.
                  await recordWebhookDeliveryIfLeased(
                    db,
                    row.id,
                    lease,
                    { attempts: Math.max(0, row.attempts - 1), updated_at: Date.now() },
                    null,
                  );
                  return;
                }
                await deliver(row, lease);
              } catch (error) {
                // The row stays leased until the lease runs out; a later poll takes it again.
                log.warn(`webhooks: delivery ${row.id} could not be recorded: ${(error as Error).message}`);
              }
            }),
          ),
        ),
      );
      // One entry per host seen: forget the hosts nothing is being sent to any more.
      for (const [host, limit] of hosts) if (limit.idle()) hosts.delete(host);
      if (ids.length === BATCH) again = true;
    } while (again && !stopped);
  }

  function tick(): void {
    if (stopped) return;
    if (current) {
      again = true;
      return;
    }
    current = poll()
      .catch((error: unknown) => log.warn(`webhooks: queue poll failed: ${(error as Error).message}`))
      .finally(() => {
        current = null;
      });
  }

  return {
    start(): void {
      if (!stopped) return;
      stopped = false;
      timer = setInterval(tick, config.pollMs);
      timer.unref();
      tick();
    },
    /**
     * New mail: look now rather than at the next poll, or `KICK_GAP_MS` after the last look a kick
     * caused: under a stream of mail (hundreds of messages a second, most with no webhook) one look
     * serves many messages instead of one each.
     */
    kick(): void {
      if (stopped || kickTimer) return;
      kickTimer = setTimeout(
        () => {
          kickTimer = null;
          kickedAt = Date.now();
          tick();
        },
        Math.max(0, kickedAt + KICK_GAP_MS - Date.now()),
      );
      kickTimer.unref();
    },
    /** Stops polling, interrupts requests in flight and waits until their rows are recorded. */
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

export type WebhookWorker = ReturnType<typeof createWebhookWorker>;
