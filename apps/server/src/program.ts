import { existsSync } from 'node:fs';
import type { Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startAcmeChallengeServer } from './acme-challenge-server.js';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { startHttpsServer } from './https-server.js';
import { startImapServer } from './imap/imap-server.js';
import { acceptOnCopies } from './lib/accept-copies.js';
import { SHUTDOWN_LIMITS } from './lib/shutdown.js';
import { startPop3Server } from './pop3/pop3-server.js';
import { startSmtpServer, startSmtpsServer } from './smtp/smtp-server.js';
import { startSubmissionServer } from './smtp/submission-server.js';
import { startWhenCertified } from './tls-listeners.js';

/** The program (server.ts starts it): validate the configuration, build the app, listen, shut down cleanly. */
export async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    const webRoot = fileURLToPath(new URL('../../web/dist', import.meta.url));
    config = loadConfig(process.env, { webRoot: existsSync(webRoot) ? webRoot : null });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`配置错误：${error.message}`);
      process.exit(1);
    }
    throw error;
  }

  const app = await buildApp(config);
  if (!config.webRoot) app.log.warn('未找到网页客户端（apps/web/dist），只提供 API；运行 npm run build 生成');

  // Every listener, as it starts: a shutdown closes them all at once (each stops accepting and
  // bids its idle sessions goodbye), not one after the other in the app's preClose hooks, which
  // await the same closes.
  const listeners: { close(): Promise<void> }[] = [];
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Past the deadline, whatever still runs is abandoned: a 250, an IMAP OK or a delivered
    // webhook is only given after its commit, so nothing acknowledged is lost (lib/shutdown.ts).
    const deadline = setTimeout(() => {
      app.log.warn(
        `shutdown: not finished after ${SHUTDOWN_LIMITS.deadlineMs} ms; exiting, work in flight abandoned`,
      );
      process.exit(0);
    }, SHUTDOWN_LIMITS.deadlineMs);
    for (const listener of listeners) void listener.close();
    // The HTTP port too: requests in flight finish, idle keep-alive connections close (Fastify's
    // own close later finds the server stopped, which it accepts).
    app.server.close();
    // Then, in the app's order: live streams ended with a retry hint, long polls answered,
    // webhook and outbound deliveries in flight handed back to their queues, the listeners'
    // sessions finished, the HTTP server, the store worker, the database last.
    try {
      await app.close();
    } catch (error) {
      app.log.error({ err: error }, 'shutdown: closing failed');
    }
    clearTimeout(deadline);
    app.log.info('shut down');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  const started = <T extends { close(): Promise<void> } | null>(listener: T): T => {
    if (listener) listeners.push(listener);
    return listener;
  };
  // SMTP first: app.close() (on SIGTERM) stops it before HTTP and the database.
  const smtp = started(await startSmtpServer(app));
  // The implicit-TLS listeners start now when a certificate exists, else as soon as one appears
  // (the first ACME issuance, or reloadCertificates): see tls-listeners.ts. A shutdown closes
  // whichever of them is running with the rest.
  const later = { closeWithApp: false } as const;
  const whenCertified = async <T extends { port: number; close(): Promise<void> }>(
    name: string,
    enabled: boolean,
    start: () => Promise<T | null>,
  ) => {
    const deferred = await startWhenCertified(app, name, enabled, start);
    listeners.push({ close: async () => deferred.current?.close() });
  };
  await whenCertified('SMTPS', config.smtpsPort !== null, () => startSmtpsServer(app, later));
  // Mail clients' submission (RFC 6409): STARTTLS on SUBMISSION_PORT, implicit TLS on SUBMISSIONS_PORT.
  const submission = started(await startSubmissionServer(app));
  await whenCertified('SMTP submission (TLS)', config.submissionsPort !== null, () =>
    startSubmissionServer(app, { secure: true, ...later }),
  );
  // The mail-client listeners (API.md "Standard mail clients"); each is off when its port is.
  const imap = started(await startImapServer(app));
  await whenCertified('IMAPS', config.imapsPort !== null, () =>
    startImapServer(app, { secure: true, ...later }),
  );
  const pop3 = started(await startPop3Server(app));
  await whenCertified('POP3S', config.pop3sPort !== null, () =>
    startPop3Server(app, { secure: true, ...later }),
  );
  // ACME's HTTP-01 responder (ACME_HTTP_PORT) listens before the app is ready, when ACME's first check runs.
  const acmeChallenge = started(await startAcmeChallengeServer(app));
  // The listeners that take many short connections accept more than one a turn of the event loop
  // when it is busy (lib/accept-copies.ts); IMAP, POP3 and ACME's responder keep one descriptor
  // (their sessions are long, or few, and net's maxConnections is their backstop).
  const acceptWider = async (servers: Server[]) => {
    const copies = await acceptOnCopies(servers, { log: app.log });
    listeners.push({ close: async () => copies.close() });
  };
  // HTTPS waits for the app to be ready, then listens.
  await whenCertified('HTTPS', config.httpsPort !== null, async () => {
    const https = await startHttpsServer(app, later);
    if (https) await acceptWider([https.server]);
    return https;
  });
  await app.listen({ port: config.port, host: config.host });
  await acceptWider([app.server, smtp.server.server, ...(submission ? [submission.server.server] : [])]);
  app.log.info(`SMTP listening on ${config.host}:${smtp.port}`);
  // The implicit-TLS listeners log their own start (now, or when a certificate appears).
  if (submission) app.log.info(`SMTP submission listening on ${config.host}:${submission.port}`);
  if (imap) app.log.info(`IMAP listening on ${config.host}:${imap.port}`);
  if (pop3) app.log.info(`POP3 listening on ${config.host}:${pop3.port}`);
  if (acmeChallenge) app.log.info(`ACME HTTP-01 listening on ${config.host}:${acmeChallenge.port}`);
}
