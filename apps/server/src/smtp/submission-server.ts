import type { FastifyInstance } from 'fastify';
import {
  SMTPServer,
  type SMTPServerAddress,
  type SMTPServerAuthentication,
  type SMTPServerAuthenticationResponse,
  type SMTPServerDataStream,
  type SMTPServerSession,
} from 'smtp-server';
import { ApiError } from '../lib/api-error.js';
import { SHUTDOWN_LIMITS } from '../lib/shutdown.js';
import { MAX_RECIPIENTS, type Sender } from '../modules/sending/index.js';
import { DataGuard } from '../protocols/smtp/data-guard.js';
import { Replies, SmtpReply } from '../protocols/smtp/smtp-reply.js';
import { greetWithoutDelay } from './greeting.js';
import {
  appLogger,
  callback,
  closeSmtpServer,
  createSourceLimiter,
  followCertificates,
  isLoopback,
  type Logger,
  listen,
  listenerCertificate,
  refuseBlocked,
  temporaryFailure,
} from './listener.js';

export const SUBMISSION_LIMITS = {
  /** simultaneous sessions in all; more get 421 from smtp-server */
  maxClients: 500,
  /** simultaneous sessions from one source (an IPv4 address, an IPv6 /64) */
  maxClientsPerSource: 10,
  overShareWaitMs: 1_000,
  /** recipients of one message, the same cap as sendEmail's (RFC 5321 section 4.5.3.1.8 asks for 100) */
  maxRecipients: MAX_RECIPIENTS,
  /** failed AUTH commands in one session before it is closed with 421 */
  maxFailedAuth: 3,
  /** commands other than AUTH before a client has logged in (then 421, smtp-server's counter) */
  maxUnauthenticatedCommands: 10,
  maxLineBytes: 64 * 1024,
  maxHeaderBytes: 256 * 1024,
  /** idle time per command; a mail client composing keeps no session open, RFC 5321 4.5.3.2 allows 5 min */
  socketTimeoutMs: 2 * 60_000,
};

/** What a session knows after AUTH: the mailbox it logged in as, as a sender. */
interface SubmissionUser {
  mailboxId: number;
  sender: Sender;
}

export interface SubmissionServerHandle {
  port: number;
  server: SMTPServer;
  reloadCertificate(): Promise<boolean>;
  close(): Promise<void>;
}

/** The parts of smtp-server 3.21.6's SMTPConnection (pinned exactly in package.json) used below. */
interface ConnectionInternals {
  session: SMTPServerSession;
  secure: boolean;
  handler_EHLO(command: Buffer, callback: () => void): void;
  handler_AUTH(command: Buffer, callback: () => void): void;
  send(code: number, message: string): void;
}

/**
 * RFC 4954 section 4 and RFC 8314 section 3: passwords travel only inside TLS. A client that is not
 * on this machine sees AUTH in the EHLO reply only after STARTTLS, and an AUTH it sends before gets
 * 538 before any password was exchanged; a loopback client (a script, a webmail on the same host)
 * may log in without TLS. smtp-server decides this for the whole server (`allowInsecureAuth`), so
 * each connection's EHLO and AUTH handlers are wrapped when it connects.
 */
function requireTlsForRemoteAuth(server: SMTPServer, session: SMTPServerSession): void {
  if (isLoopback(session.remoteAddress)) return;
  const connection = [...(server.connections as Set<unknown>)].find(
    (candidate) => (candidate as ConnectionInternals).session === session,
  ) as ConnectionInternals | undefined;
  if (!connection) return;
  const ehlo = connection.handler_EHLO;
  const auth = connection.handler_AUTH;
  connection.handler_EHLO = function (this: ConnectionInternals, command, done) {
    if (this.secure) return ehlo.call(this, command, done);
    // Session-level disabledCommands hide AUTH from the feature list; EHLO runs synchronously.
    const saved = this.session.disabledCommands;
    this.session.disabledCommands = [...(saved ?? []), 'AUTH'];
    try {
      ehlo.call(this, command, done);
    } finally {
      this.session.disabledCommands = saved;
    }
  };
  connection.handler_AUTH = function (this: ConnectionInternals, command, done) {
    if (this.secure) return auth.call(this, command, done);
    const reply = Replies.startTlsFirst();
    this.send(reply.responseCode, reply.message);
    done();
  };
}

function declaredSize(address: SMTPServerAddress | false): number {
  if (address === false || !address.args) return 0;
  const size = Number((address.args as Record<string, string>).SIZE ?? 0);
  return Number.isFinite(size) ? size : 0;
}

/**
 * The submission listener (RFC 6409) on `SUBMISSION_PORT` (STARTTLS) or, with `secure`,
 * `SUBMISSIONS_PORT` (implicit TLS, RFC 8314 section 3.3): mailbox accounts log in with AUTH PLAIN
 * or LOGIN (the loginEmail credentials, throttled per account and source like the web) and send as
 * their own address only. An adapter like smtp-server.ts: the rules are the sending service's
 * (`submitRaw`, the same path as the web's sendEmail).
 */
export async function startSubmissionServer(
  app: FastifyInstance,
  options: {
    port?: number | null;
    host?: string;
    secure?: boolean;
    /** false for a listener started after the app (tests), which its starter closes */
    closeWithApp?: boolean;
  } = {},
): Promise<SubmissionServerHandle | null> {
  const { config, services } = app;
  const secure = options.secure === true;
  const port =
    options.port === undefined ? (secure ? config.submissionsPort : config.submissionPort) : options.port;
  if (port === null) return null;
  const log = appLogger(app);
  if (secure && !services.certificates.defaultCertificate()) {
    app.log.error(
      `SMTP 提交（SUBMISSIONS_PORT）未启动：${services.certificates.certsDir} 下没有有效的证书（需要 <主机名>/fullchain.pem 与 privkey.pem，未过期且与私钥匹配）`,
    );
    return null;
  }
  greetWithoutDelay();
  const certificate = await listenerCertificate(app, secure);
  const sources = createSourceLimiter({
    maxPerSource: SUBMISSION_LIMITS.maxClientsPerSource,
    waitMs: SUBMISSION_LIMITS.overShareWaitMs,
  });
  const failedAuth = new WeakMap<SMTPServerSession, number>();
  const maxMessageBytes = async () => (await services.settings.get()).maxMessageBytes;

  const userOf = (session: SMTPServerSession): SubmissionUser | null =>
    (session.user as SubmissionUser | undefined) ?? null;

  async function onConnect(session: SMTPServerSession): Promise<void> {
    if (!(await sources.admit(session))) {
      log.info(`submission: ${session.remoteAddress} over its share of connections`);
      throw Replies.tooManyConnections();
    }
    await refuseBlocked((ip) => services.firewall.blockOf(ip), session, log, 'submission');
    requireTlsForRemoteAuth(server, session);
  }

  async function onAuth(
    auth: SMTPServerAuthentication,
    session: SMTPServerSession,
  ): Promise<SMTPServerAuthenticationResponse> {
    if (!session.secure && !isLoopback(session.remoteAddress)) throw Replies.startTlsFirst();
    // Every refused AUTH counts, throttled ones too: the third in a session closes it.
    const failed = (reply: SmtpReply) => {
      const count = (failedAuth.get(session) ?? 0) + 1;
      failedAuth.set(session, count);
      return count >= SUBMISSION_LIMITS.maxFailedAuth ? Replies.tooManyAuthFailures() : reply;
    };
    try {
      const mailbox = await services.auth.authenticateMailbox(auth.username ?? '', auth.password ?? '', {
        ip: session.remoteAddress,
        userAgent: 'SMTP submission',
      });
      const sender = await services.sending.mailboxSender(mailbox.id);
      return { user: { mailboxId: mailbox.id, sender } satisfies SubmissionUser };
    } catch (error) {
      if (error instanceof ApiError) {
        // 429: the shared login throttle of this account and source (auth-service), RFC 4954 454.
        if (error.code === 429) throw failed(Replies.authUnavailable());
        // 400 wrong credentials, 403 disabled or expired: the same answer, nothing to tell apart.
        throw failed(Replies.badCredentials());
      }
      throw error;
    }
  }

  async function onMailFrom(address: SMTPServerAddress, session: SMTPServerSession): Promise<void> {
    const user = userOf(session);
    if (!user) throw Replies.authRequired();
    const limit = await maxMessageBytes();
    if (declaredSize(address) > limit) throw Replies.tooBig(limit);
    // RFC 6409 section 6.1: the submission server checks that the sender is the user's. The null
    // sender (RFC 5321 section 4.5.5) is for bounces, which a mail client never sends.
    if (address.address.trim().toLowerCase() !== user.sender.address) {
      throw Replies.senderNotOwned('Envelope sender');
    }
  }

  async function onRcptTo(address: SMTPServerAddress, session: SMTPServerSession): Promise<void> {
    const user = userOf(session);
    if (!user) throw Replies.authRequired();
    if (session.envelope.rcptTo.length >= SUBMISSION_LIMITS.maxRecipients) throw Replies.tooManyRecipients();
    try {
      await services.sending.checkRecipientsAllowed(user.sender, [address.address.trim().toLowerCase()]);
    } catch (error) {
      if (error instanceof ApiError && error.code === 403) throw Replies.recipientNotAllowed(address.address);
      throw error;
    }
  }

  async function onData(stream: SMTPServerDataStream, session: SMTPServerSession): Promise<string> {
    const user = userOf(session);
    if (!user) throw Replies.authRequired();
    const maxBytes = await maxMessageBytes();
    server.options.size = maxBytes;
    const guard = new DataGuard({
      maxBytes,
      maxLineBytes: SUBMISSION_LIMITS.maxLineBytes,
      maxHeaderBytes: SUBMISSION_LIMITS.maxHeaderBytes,
    });
    const spooled = await services.sending.spoolSubmission(stream.pipe(guard));
    try {
      if (guard.violation === 'too-big') throw Replies.tooBig(maxBytes);
      if (guard.violation === 'bare-line-break') throw Replies.bareLineBreak();
      if (guard.violation === 'line-too-long') throw Replies.lineTooLong(SUBMISSION_LIMITS.maxLineBytes);
      if (guard.violation === 'header-too-large') throw Replies.structureTooLarge('header');
      const recipients = session.envelope.rcptTo.map((rcpt) => rcpt.address);
      // RFC 6409 section 4.1 / RFC 5321 section 4.2.5: 250 only after the sent item and its queue
      // rows are committed.
      const result = await services.sending.submitRaw(user.sender, { recipients }, spooled);
      return `2.0.0 OK queued as ${result.id}`;
    } catch (error) {
      throw dataReply(error, log);
    } finally {
      await services.sending.discardSubmission(spooled);
    }
  }

  const server: SMTPServer = new SMTPServer({
    name: config.mailHostname,
    banner: 'Youju ESMTP submission',
    size: await maxMessageBytes(),
    authMethods: ['PLAIN', 'LOGIN'],
    // Remote clients are held to TLS per connection (requireTlsForRemoteAuth), loopback ones are not.
    allowInsecureAuth: true,
    authOptional: false,
    authRequiredMessage: Replies.authRequired().message,
    maxAllowedUnauthenticatedCommands: SUBMISSION_LIMITS.maxUnauthenticatedCommands,
    secure,
    hideSTARTTLS: secure || certificate === null,
    ...(certificate ?? {}),
    SNICallback: services.certificates.sniCallback,
    disableReverseLookup: true,
    maxClients: SUBMISSION_LIMITS.maxClients,
    socketTimeout: SUBMISSION_LIMITS.socketTimeoutMs,
    // smtp-server's logger would print user names; passwords never reach a log either way.
    logger: false,
    onConnect: (session, done) =>
      callback(() => onConnect(session), done, log, session, temporaryFailure.atConnect),
    onClose: (session) => sources.release(session),
    onAuth: (auth, session, done) =>
      callback(
        () => onAuth(auth, session),
        (error, response) => done(error ?? null, response),
        log,
        session,
        Replies.authUnavailable,
      ),
    onMailFrom: (address, session, done) => callback(() => onMailFrom(address, session), done, log, session),
    onRcptTo: (address, session, done) => callback(() => onRcptTo(address, session), done, log, session),
    onData: (stream, session, done) =>
      callback(
        () => onData(stream, session),
        (error, message) => {
          if (error && stream.readable) stream.resume();
          done(error ?? null, message);
        },
        log,
        session,
      ),
  });
  server.on('error', (error) => log.warn(`submission: ${error.message}`));

  const boundPort = await listen(server, port, options.host ?? config.host);
  const certificates = followCertificates(app, server, secure);
  let closing: Promise<void> | null = null;
  // Readiness (/readyz) and the SMTP-session gauge count this listener beside the inbound ones.
  const stopTracking = services.health.trackSmtpListener({
    listening: () => closing === null && server.server.listening,
    sessions: () => server.connections.size,
  });
  const handle: SubmissionServerHandle = {
    port: boundPort,
    server,
    reloadCertificate: certificates.reload,
    // One shutdown, however often asked (server.ts starts it, the app's preClose awaits it).
    close: () => {
      closing ??= (async () => {
        certificates.stop();
        stopTracking();
        await closeSmtpServer(server, SHUTDOWN_LIMITS.graceMs);
      })();
      return closing;
    },
  };
  // Stop taking mail before the HTTP server and the database go away.
  if (options.closeWithApp !== false) app.addHook('preClose', async () => handle.close());
  return handle;
}

/** The reply to DATA for a refusal of the sending service. */
function dataReply(error: unknown, log: Logger): SmtpReply {
  if (error instanceof SmtpReply) return error;
  if (error instanceof ApiError) {
    switch (error.code) {
      case 403:
        return Replies.senderNotOwned('From header');
      case 429:
        return Replies.sendingLimit();
      case 413:
        return Replies.structureTooLarge('size');
      case 400:
        return Replies.tooManyRecipients();
    }
  }
  log.error(`submission: sending failed: ${(error as Error).message}`);
  return Replies.storageFailed();
}
