import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { WebhookConfig } from '../../config.js';
import type { Engine } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { Metrics } from '../../lib/metrics.js';
import type { RateLimits } from '../../lib/rate-limiter.js';
import type { MailEvents } from '../mail/index.js';
import { createWebhookService } from './webhook-service.js';
import { createWebhookWorker } from './webhook-worker.js';

interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Webhooks and Telegram, wired once per app: the service behind the routes and the queue's worker. */
export function createWebhookModule(deps: {
  db: Kysely<Database>;
  engine: Engine;
  config: WebhookConfig;
  rateLimits: RateLimits;
  log: Logger;
  metrics: Pick<Metrics, 'webhookDelivery'>;
}) {
  const { db, engine, config, rateLimits, log, metrics } = deps;
  return {
    webhooks: createWebhookService({ db, engine, config, rateLimits }),
    webhookWorker: createWebhookWorker({
      db,
      config,
      log,
      onResult: (result) => metrics.webhookDelivery(result),
    }),
  };
}

/**
 * Starts the webhook worker (every process runs one), wakes it when mail is stored (any process's,
 * through the mail events), and stops it before the database closes.
 */
export function startWebhooks(app: FastifyInstance, mailEvents: MailEvents): void {
  const { webhookWorker, accountEvents } = app.services;
  webhookWorker.start();
  const unsubscribe = mailEvents.subscribe(() => webhookWorker.kick());
  // A notice for an account (a new order) was queued for its webhooks in the same commit.
  const unsubscribeAccount = accountEvents.subscribe(() => webhookWorker.kick());
  app.addHook('preClose', async () => {
    unsubscribe();
    unsubscribeAccount();
    await webhookWorker.stop();
  });
}
