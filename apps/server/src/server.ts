import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { tuneHeap } from './heap.js';
import { startHttpsServer } from './https-server.js';
import { startImapServer } from './imap/imap-server.js';
import { SHUTDOWN_LIMITS } from './lib/shutdown.js';
import { startPop3Server } from './pop3/pop3-server.js';
import { startSmtpServer, startSmtpsServer } from './smtp/smtp-server.js';
import { startSubmissionServer } from './smtp/submission-server.js';

/** Entry point: validate the configuration, build the app, listen, shut down cleanly. */
async function main(): Promise<void> {
  tuneHeap();
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
  const smtps = started(await startSmtpsServer(app));
  // Mail clients' submission (RFC 6409): STARTTLS on SUBMISSION_PORT, implicit TLS on SUBMISSIONS_PORT.
  const submission = started(await startSubmissionServer(app));
  const submissions = started(await startSubmissionServer(app, { secure: true }));
  // The mail-client listeners (API.md "Standard mail clients"); each is off when its port is.
  const imap = started(await startImapServer(app));
  const imaps = started(await startImapServer(app, { secure: true }));
  const pop3 = started(await startPop3Server(app));
  const pop3s = started(await startPop3Server(app, { secure: true }));
  // HTTPS registers its close hook, waits for the app to be ready, then listens.
  const https = started(await startHttpsServer(app));
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`SMTP listening on ${config.host}:${smtp.port}`);
  if (smtps) app.log.info(`SMTPS listening on ${config.host}:${smtps.port}`);
  if (submission) app.log.info(`SMTP submission listening on ${config.host}:${submission.port}`);
  if (submissions) app.log.info(`SMTP submission (TLS) listening on ${config.host}:${submissions.port}`);
  if (imap) app.log.info(`IMAP listening on ${config.host}:${imap.port}`);
  if (imaps) app.log.info(`IMAPS listening on ${config.host}:${imaps.port}`);
  if (pop3) app.log.info(`POP3 listening on ${config.host}:${pop3.port}`);
  if (pop3s) app.log.info(`POP3S listening on ${config.host}:${pop3s.port}`);
  if (https) app.log.info(`HTTPS listening on ${config.host}:${https.port}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
