import type pg from 'pg';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** How the SMTP layer answered a DATA transaction: 250, a 5xx refusal, or a 4xx "try again later". */
export type SmtpMessageResult = 'stored' | 'rejected' | 'temp_failed';
/** What one outbound delivery attempt of one recipient came to. */
export type DeliveryAttemptResult = 'delivered' | 'failed' | 'deferred';
/** What one webhook delivery came to. */
export type WebhookDeliveryResult = 'delivered' | 'failed';

const OUTBOUND_WAITING_STATUSES = ['queued', 'sending', 'retrying'] as const;
export type OutboundWaitingStatus = (typeof OUTBOUND_WAITING_STATUSES)[number];

/** What the gauges read when Prometheus scrapes (nothing is polled in between). */
export interface MetricSources {
  /** outbound recipients still waiting, per queue status */
  outboundQueueDepth(): Promise<Record<OutboundWaitingStatus, number>>;
  /** open SMTP sessions over every listener of this process */
  smtpSessions(): number;
  /** the PostgreSQL pool, null on SQLite */
  pool: pg.Pool | null;
}

/**
 * Request durations in seconds: most API calls take milliseconds; long polls (waitEmail) and live
 * event streams land in the top buckets.
 */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * The Prometheus metrics of one app, in a registry of its own: never prom-client's global default
 * registry, so that several apps built in one process (tests) neither clash over metric names nor
 * count into each other.
 */
export function createMetrics(sources: MetricSources) {
  const registry = new Registry();
  // process_resident_memory_bytes, CPU, file descriptors, event loop lag, heap, GC.
  collectDefaultMetrics({ register: registry });

  const smtpMessages = new Counter({
    name: 'youju_smtp_messages_total',
    help: 'Inbound SMTP transactions by the reply to DATA: stored (250), rejected (5xx), temp_failed (4xx)',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  // Every series exists from the start, so a rate() over a fresh process is 0 rather than absent.
  for (const result of ['stored', 'rejected', 'temp_failed'] satisfies SmtpMessageResult[]) {
    smtpMessages.inc({ result }, 0);
  }

  new Gauge({
    name: 'youju_smtp_connections',
    help: 'Open inbound SMTP sessions',
    registers: [registry],
    collect() {
      this.set(sources.smtpSessions());
    },
  });

  new Gauge({
    name: 'youju_outbound_queue_depth',
    help: 'Outbound recipients waiting for delivery, by queue status',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      // With the database gone the other metrics still matter most: this one is left out (absent,
      // not a stale number) rather than failing the whole scrape.
      try {
        const depth = await sources.outboundQueueDepth();
        for (const status of OUTBOUND_WAITING_STATUSES) this.set({ status }, depth[status]);
      } catch {
        this.reset();
      }
    },
  });

  const deliveryAttempts = new Counter({
    name: 'youju_delivery_attempts_total',
    help: 'Outbound delivery attempts per recipient: delivered, failed (permanently), deferred (to retry)',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  for (const result of ['delivered', 'failed', 'deferred'] satisfies DeliveryAttemptResult[]) {
    deliveryAttempts.inc({ result }, 0);
  }

  const httpDuration = new Histogram({
    name: 'youju_http_request_duration_seconds',
    help: 'HTTP request duration by method, route pattern and status class',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });

  // Counted by the webhook worker (modules/webhooks) when a delivery is settled: delivered (2xx), or
  // failed (given up after 24 h of retries, refused target, message deleted). Retries are not counted.
  const webhookDeliveries = new Counter({
    name: 'youju_webhook_deliveries_total',
    help: 'Webhook and Telegram deliveries by final outcome: delivered, failed (given up)',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  for (const result of ['delivered', 'failed'] satisfies WebhookDeliveryResult[]) {
    webhookDeliveries.inc({ result }, 0);
  }

  const { pool } = sources;
  if (pool) {
    new Gauge({
      name: 'youju_db_pool_connections',
      help: 'PostgreSQL pool of this process: total connections, idle ones, and queries waiting for one',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
  }

  return {
    registry,
    contentType: registry.contentType,
    /** the text exposition format, gauges collected now */
    render: () => registry.metrics(),
    smtpMessage(result: SmtpMessageResult): void {
      smtpMessages.inc({ result });
    },
    deliveryAttempt(result: DeliveryAttemptResult): void {
      deliveryAttempts.inc({ result });
    },
    webhookDelivery(result: WebhookDeliveryResult): void {
      webhookDeliveries.inc({ result });
    },
    /** `route` must be a pattern (`/api/user/mail/:id`), never the raw URL: the label set stays bounded */
    httpRequest(method: string, route: string, statusCode: number, seconds: number): void {
      httpDuration.observe({ method, route, status_class: `${Math.floor(statusCode / 100)}xx` }, seconds);
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
