import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { Config } from './config.js';
import { type DatabaseHandle, openDatabase } from './db/database.js';
import { migrate } from './db/migrate.js';
import { searchIndexWarning } from './db/search-index.js';
import { secureDataDir } from './lib/data-dir.js';
import { apiKeyRoutes } from './modules/api-keys/index.js';
import { authRoutes, sessionRoutes } from './modules/auth/index.js';
import { startScheduledBackups } from './modules/backups/index.js';
import { cardRoutes, publicCardRoutes } from './modules/cards/index.js';
import { certificateRoutes } from './modules/certificates/index.js';
import { dashboardRoutes } from './modules/dashboard/index.js';
import { dkimRoutes } from './modules/dkim/index.js';
import { dnsRoutes } from './modules/dns/index.js';
import { domainRoutes, storeDomainRoutes } from './modules/domains/index.js';
import { emailAccountRoutes } from './modules/email-accounts/index.js';
import { filterRoutes } from './modules/filters/index.js';
import { firewallRoutes, installFirewallGuard } from './modules/firewall/index.js';
import { forwardRoutes } from './modules/forwarding/index.js';
import { healthRoutes } from './modules/health/index.js';
import { mailRoutes, startRetention } from './modules/mail/index.js';
import { autoconfigRoutes, clientSettingsRoutes } from './modules/mail-clients/index.js';
import { openRoutes } from './modules/open-api/index.js';
import { orderRoutes, storeRoutes } from './modules/orders/index.js';
import { securityRoutes } from './modules/security/index.js';
import { sendingRoutes, startSending } from './modules/sending/index.js';
import { settingsRoutes } from './modules/settings/index.js';
import { systemAccountRoutes } from './modules/system-accounts/index.js';
import { variablesRoutes } from './modules/variables/index.js';
import { versionRoutes } from './modules/version/index.js';
import { startWebhooks, webhookRoutes } from './modules/webhooks/index.js';
import { installAuthentication } from './plugins/authentication.js';
import { installCompression } from './plugins/compression.js';
import { installErrorHandling } from './plugins/error-handling.js';
import { installHttpMetrics } from './plugins/http-metrics.js';
import { installOpenApi } from './plugins/openapi.js';
import { sharedSerializerFactory } from './plugins/serializers.js';
import { installValidators } from './plugins/validation.js';
import { installWebClient } from './plugins/web-client.js';
import { createServices, type Services } from './services.js';
import { type MessageStore, startMessageStore } from './store/message-store.js';
import { APP_VERSION } from './version.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: DatabaseHandle;
    services: Services;
    messageStore: MessageStore;
  }
}

/** What a request looks like in the log: never a token, even one passed in the query string. */
function requestForLog(request: { method: string; url: string; ip?: string }) {
  return {
    method: request.method,
    url: request.url.replace(/([?&](?:token|key)=)[^&]*/gi, '$1***'),
    ip: request.ip,
  };
}

/**
 * The web client's content security policy, on every response (API answers included, so a JSON
 * or download opened in a tab runs nothing either). Scripts only from this origin; styles inline
 * too, since antd writes its styles at run time. Images may come from anywhere because the reader
 * shows a message's remote images once its reader allows them: the mail frame (a sandboxed srcdoc
 * document, which inherits this policy) adds its own stricter policy until then. Nobody may frame
 * the client (clickjacking).
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https: http:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self' blob: data:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** JSON bodies are small; attachments go through the multipart upload with its own limit. */
const JSON_BODY_LIMIT = 1024 * 1024;

export interface BuildOptions {
  /** pino options, or false for silence (tests) */
  logger?: boolean | Record<string, unknown>;
}

/**
 * Builds the whole HTTP application as one Fastify instance, ready to `listen()` or to be driven by
 * tests. Opens the database and applies migrations first.
 */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
            serializers: { req: requestForLog },
            ...(typeof options.logger === 'object' ? options.logger : {}),
          },
    bodyLimit: JSON_BODY_LIMIT,
    // A malformed or over-long path (a 1000-digit id) is bad input like any other: the envelope
    // with 400, not the router's bare 414.
    frameworkErrors: (_error, _request, typedReply) => {
      const reply = typedReply as unknown as FastifyReply;
      void reply
        .status(400)
        .type('application/json; charset=utf-8')
        .send({ error: 400, msg: '请求地址中的参数格式不正确或过长，请检查后重试' });
    },
    // X-Forwarded-For only from the operator's proxies (TRUSTED_PROXIES): request.ip is then the
    // right-most address of the chain that is not a trusted proxy, so a client cannot name itself
    // someone else to escape a ban or a limit; from anyone else the header is ignored.
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    schemaController: { compilersFactory: { buildSerializer: sharedSerializerFactory } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  await secureDataDir(config.dataDir);
  const database = openDatabase({ ...config, log: app.log });
  try {
    await migrate(database.db as never, database.engine);
    const searchWarning = await searchIndexWarning(database.db as never, database.engine);
    if (searchWarning) app.log.warn(searchWarning);
  } catch (error) {
    await database.close();
    throw error;
  }
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('services', createServices(database.db, database.engine, config, app.log, database.pool));
  app.addHook('onClose', async () => database.close());
  // The Redis connections (REDIS_URL) close after everything that counts or publishes.
  app.addHook('onClose', async () => app.services.crossProcess.close());
  // Inbound mail is stored on a worker thread (src/store); onClose hooks run last-added first, so
  // it ends before the database closes.
  app.decorate(
    'messageStore',
    startMessageStore(
      {
        databaseUrl: config.databaseUrl,
        dataDir: config.dataDir,
        dnsServers: config.dnsServers,
        mailHostname: config.mailHostname,
        notifyInTransaction: config.databaseUrl !== null && config.redisUrl === null,
      },
      app.log,
    ),
  );
  app.addHook('onClose', async () => app.messageStore.close());
  // Live-inbox notifications (LISTEN on PostgreSQL, SUBSCRIBE on Redis) and the retention purge
  // stop before the database closes.
  await app.services.mailEvents.start();
  app.addHook('preClose', async () => app.services.mailEvents.close());
  startRetention(app);
  await startSending(app);
  const backups = startScheduledBackups({
    target: { dataDir: config.dataDir, databaseUrl: config.databaseUrl, version: APP_VERSION },
    settings: () => app.services.settings.get(),
    log: app.log,
    checkEveryMs: config.backupCheckMs,
  });
  app.addHook('preClose', async () => backups.stop());
  // ACME's first check runs once the app is ready (the HTTP-01 listener is up by then); an order in
  // flight is aborted on close.
  app.addHook('onReady', async () => app.services.acme.start());
  app.addHook('preClose', async () => app.services.acme.stop());
  startWebhooks(app, app.services.mailEvents);

  installHttpMetrics(app);
  installValidators(app);
  installErrorHandling(app);
  installAuthentication(app);
  // A blacklisted address is refused before any route runs.
  installFirewallGuard(app);
  app.addHook('onSend', async (request, reply, payload) => {
    // Raw messages and attachments carry their own stricter policy (sandbox, nothing loads).
    if (!reply.hasHeader('content-security-policy')) {
      reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    }
    reply.header('x-frame-options', 'DENY');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    // Only over HTTPS (RFC 6797 section 7.2: a host must not send it over plain HTTP).
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000');
    return payload;
  });

  // Compression hooks into each route as the route is added, so it comes before them.
  await installCompression(app);
  // Before the routes, so that it sees them all (it documents only the open API).
  await installOpenApi(app);
  // Probes and metrics for the operator's load balancer and Prometheus, outside /api (the web
  // client's history fallback never sees them: they are routes).
  await app.register(healthRoutes);
  // Mail-client autoconfiguration (Thunderbird, Outlook) at the paths clients ask for, outside /api.
  await app.register(autoconfigRoutes);
  await app.register(variablesRoutes, { prefix: '/api' });
  await app.register(authRoutes, { prefix: '/api' });
  await app.register(storeDomainRoutes, { prefix: '/api' });
  await app.register(sessionRoutes, { prefix: '/api/user' });
  await app.register(domainRoutes, { prefix: '/api/user' });
  await app.register(mailRoutes, { prefix: '/api/user' });
  await app.register(sendingRoutes, { prefix: '/api/user' });
  await app.register(clientSettingsRoutes, { prefix: '/api/user' });
  await app.register(filterRoutes, { prefix: '/api/user' });
  await app.register(dkimRoutes, { prefix: '/api/user' });
  await app.register(dnsRoutes, { prefix: '/api/user' });
  await app.register(certificateRoutes, { prefix: '/api/user' });
  await app.register(systemAccountRoutes, { prefix: '/api/admin' });
  await app.register(storeRoutes, { prefix: '/api' });
  await app.register(publicCardRoutes, { prefix: '/api' });
  await app.register(emailAccountRoutes, { prefix: '/api/user' });
  await app.register(cardRoutes, { prefix: '/api/user' });
  await app.register(orderRoutes, { prefix: '/api/user' });
  await app.register(settingsRoutes, { prefix: '/api/user' });
  await app.register(versionRoutes, { prefix: '/api/user' });
  await app.register(securityRoutes, { prefix: '/api/user' });
  await app.register(apiKeyRoutes, { prefix: '/api/user' });
  await app.register(dashboardRoutes, { prefix: '/api/user' });
  await app.register(webhookRoutes, { prefix: '/api/user' });
  await app.register(forwardRoutes, { prefix: '/api/user' });
  await app.register(firewallRoutes, { prefix: '/api/waf' });
  await app.register(openRoutes, { prefix: '/api/open' });
  await installWebClient(app, config.webRoot);

  await app.services.auth.bootstrap();
  return app;
}
