import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { Config } from './config.js';
import type { Engine } from './db/database.js';
import type { Database } from './db/schema.js';
import { createAccountEvents } from './lib/account-events.js';
import { createCrossProcess } from './lib/cross-process.js';
import { createMetrics } from './lib/metrics.js';
import { createApiKeyService } from './modules/api-keys/index.js';
import { createAuthService } from './modules/auth/index.js';
import { createCardService } from './modules/cards/index.js';
import { createAcmeService, createCertificateService } from './modules/certificates/index.js';
import { createDashboardService } from './modules/dashboard/index.js';
import { createDkimService } from './modules/dkim/index.js';
import { createDnsLookup, createDnsService } from './modules/dns/index.js';
import { createDomainService } from './modules/domains/index.js';
import { createEmailAccountService, remainingStock } from './modules/email-accounts/index.js';
import { createFilterService } from './modules/filters/index.js';
import { createBlacklistService, createFirewallService } from './modules/firewall/index.js';
import { createForwardingHook, createForwardService } from './modules/forwarding/index.js';
import { createHealthService } from './modules/health/index.js';
import {
  createFolderService,
  createInboundService,
  createMailEvents,
  createMailService,
} from './modules/mail/index.js';
import { createMailClientsService } from './modules/mail-clients/index.js';
import { createOpenApiService } from './modules/open-api/index.js';
import { createOrderService } from './modules/orders/index.js';
import { createPaySettingsStore } from './modules/payments/index.js';
import { createSecurityService } from './modules/security/index.js';
import { createSendingModule } from './modules/sending/index.js';
import { createSessionService } from './modules/sessions/index.js';
import {
  createPersonalSettingsService,
  createSettingsEditor,
  createSettingsService,
} from './modules/settings/index.js';
import { createSystemAccountService } from './modules/system-accounts/index.js';
import { createVersionService } from './modules/version/index.js';
import { createWebhookModule, ownerEventEnqueuer, webhookEnqueuer } from './modules/webhooks/index.js';

/** pino's calling convention: a message, or the fields of the line and then the message */
interface Logger {
  info(message: string): void;
  info(context: Record<string, unknown>, message: string): void;
  warn(message: string): void;
  warn(context: Record<string, unknown>, message: string): void;
  error(message: string): void;
  error(context: Record<string, unknown>, message: string): void;
}

/**
 * The composition root: every domain service, created once per app with its dependencies. They
 * know nothing about HTTP or SMTP.
 */
export function createServices(
  db: Kysely<Database>,
  engine: Engine,
  config: Config,
  log: Logger,
  pool: pg.Pool | null = null,
) {
  // Events and rate limits cross the processes of one deployment: through Redis when REDIS_URL is
  // set, else through PostgreSQL; SQLite without Redis is one process.
  const crossProcess = createCrossProcess({ redisUrl: config.redisUrl, engine, db, pool, log });
  const { rateLimits } = crossProcess;
  const health = createHealthService({ db, dataDir: config.dataDir, metricsToken: config.metricsToken });
  const metrics = createMetrics({
    outboundQueueDepth: () => health.outboundQueueDepth(),
    smtpSessions: () => health.smtpSessions(),
    pool,
  });
  const sessions = createSessionService(db);
  const settings = createSettingsService(db, { changes: crossProcess.events });
  const firewall = createFirewallService(db, {
    allowList: async () => (await settings.get()).banAllowList,
  });
  const filters = createFilterService(db, engine, log);
  const mailEvents = createMailEvents(crossProcess.events);
  const accountEvents = createAccountEvents(crossProcess.events);
  const queueOwnerEvent = ownerEventEnqueuer(engine);
  const inbound = createInboundService({
    db,
    engine,
    dataDir: config.dataDir,
    settings,
    filters,
    events: mailEvents,
    log,
    afterStore: webhookEnqueuer(engine),
    // Local deliveries (mail our own users send to a forwarding mailbox) forward like SMTP ones.
    forwarding: createForwardingHook({ db, engine, settings, mailHostname: config.mailHostname, log }),
  });
  const mail = createMailService(db, engine, settings);
  const domains = createDomainService(db, {
    engine,
    rateLimits,
    remainingStock: (ownerId) => remainingStock(db, ownerId),
    mailHostname: config.mailHostname,
    async txtLookup(name) {
      const lookup = createDnsLookup({ servers: config.dnsServers });
      try {
        const result = await lookup.txt(name);
        if (result.kind === 'found') return { values: result.values };
        if (result.kind === 'none') return { values: [] };
        return { error: result.message };
      } finally {
        lookup.cancel();
      }
    },
  });
  const dkim = createDkimService(db, domains);
  const paySettings = createPaySettingsStore(db);
  const personal = createPersonalSettingsService(db);
  // Folders as mail clients see them (IMAP, POP3); the web's drafts are kept in them too.
  const folders = createFolderService({ db, engine, settings, events: mailEvents });
  const sending = createSendingModule({
    db,
    engine,
    config,
    settings,
    dkim,
    inbound,
    folders,
    personal,
    log,
    metrics,
  });
  const security = createSecurityService(db);
  const certificates = createCertificateService({
    dataDir: config.dataDir,
    mailHostname: config.mailHostname,
    log,
  });
  const webhooks = createWebhookModule({ db, engine, config: config.webhooks, rateLimits, log, metrics });
  return {
    // Operations: readiness and the Prometheus metrics of this app (its own registry).
    health,
    metrics,
    engine,
    rateLimits,
    /** the Redis connections when REDIS_URL is set (closed last, after the events) */
    crossProcess,
    sessions,
    settings,
    firewall,
    filters,
    mailEvents,
    accountEvents,
    inbound,
    mail,
    folders,
    auth: createAuthService({
      db,
      config,
      sessions,
      settings,
      log,
      firewall,
      history: security,
      rateLimits,
    }),
    systemAccounts: createSystemAccountService(db, sessions),
    domains,
    dkim,
    dns: createDnsService({ db, config, domains, dkim }),
    certificates,
    // ACME (ACME_EMAIL): issues and renews the certificate the service above serves.
    acme: createAcmeService({
      config: config.acme,
      dataDir: config.dataDir,
      db,
      engine,
      certificates,
      rateLimits,
      dnsServers: config.dnsServers,
      log,
    }),
    emailAccounts: createEmailAccountService({ db, engine, domains, settings }),
    cards: createCardService({ db, engine, domains, settings, rateLimits }),
    paySettings,
    orders: createOrderService({
      db,
      settings,
      paySettings,
      rateLimits,
      // A new order is told to its domain's owner: webhooks and Telegram in the order's commit,
      // then the owner's live streams.
      notices: {
        async queue(trx, ownerId, notice) {
          await queueOwnerEvent(trx, ownerId, notice);
          await accountEvents.publishInTransaction(trx, { accountId: ownerId, name: 'order', data: notice });
        },
        announce: (ownerId, notice) =>
          accountEvents.publishCommitted({ accountId: ownerId, name: 'order', data: notice }),
      },
    }),
    ...sending,
    // Webhooks and Telegram: the owner's targets and the queue's worker.
    ...webhooks,
    // Mail forwarding: each mailbox's target (the copies are queued by the inbound service).
    forwards: createForwardService({ db, settings }),
    // Running the service: security centre, settings, version, blacklist, API keys, open API,
    // dashboard
    security,
    settingsEditor: createSettingsEditor({
      db,
      settings,
      personal,
      payments: paySettings,
    }),
    version: createVersionService(engine),
    blacklist: createBlacklistService(firewall),
    apiKeys: createApiKeyService(db),
    openApi: createOpenApiService({ db, mail, mailEvents, settings }),
    dashboard: createDashboardService(db),
    // What mail clients are told: autoconfig, autodiscover, Apple profiles, the client-settings screen
    mailClients: createMailClientsService({
      db,
      config,
      // The implicit-TLS listeners start only with a valid certificate (startSmtpsServer and kin).
      tlsReady: () => certificates.defaultCertificate() !== null,
      rateLimits,
    }),
  };
}

export type Services = ReturnType<typeof createServices>;
