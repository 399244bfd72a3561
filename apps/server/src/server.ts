import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startAcmeChallengeServer } from './acme-challenge-server.js';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { tuneHeap } from './heap.js';
import { startHttpsServer } from './https-server.js';
import { startImapServer } from './imap/imap-server.js';
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

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  // SMTP first: app.close() (on SIGTERM) stops it before HTTP and the database.
  const smtp = await startSmtpServer(app);
  const smtps = await startSmtpsServer(app);
  // Mail clients' submission (RFC 6409): STARTTLS on SUBMISSION_PORT, implicit TLS on SUBMISSIONS_PORT.
  const submission = await startSubmissionServer(app);
  const submissions = await startSubmissionServer(app, { secure: true });
  // The mail-client listeners (API.md "Standard mail clients"); each is off when its port is.
  const imap = await startImapServer(app);
  const imaps = await startImapServer(app, { secure: true });
  const pop3 = await startPop3Server(app);
  const pop3s = await startPop3Server(app, { secure: true });
  // ACME's HTTP-01 responder (ACME_HTTP_PORT) listens before the app is ready, when ACME's first check runs.
  const acmeChallenge = await startAcmeChallengeServer(app);
  // HTTPS registers its close hook, waits for the app to be ready, then listens.
  const https = await startHttpsServer(app);
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
  if (acmeChallenge) app.log.info(`ACME HTTP-01 listening on ${config.host}:${acmeChallenge.port}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
