import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import {
  SMTPServer,
  type SMTPServerAddress,
  type SMTPServerDataStream,
  type SMTPServerSession,
} from 'smtp-server';
import { SHUTDOWN_LIMITS } from '../lib/shutdown.js';
import { DeliveryError, type Envelope, type RecipientCheck, type Spool } from '../modules/mail/index.js';
import { DataGuard, type DataViolation } from '../protocols/smtp/data-guard.js';
import { Replies, SmtpReply } from '../protocols/smtp/smtp-reply.js';
import { greetWithoutDelay } from './greeting.js';
import {
  appLogger,
  callback,
  closeSmtpServer,
  createSourceLimiter,
  followCertificates,
  type Logger,
  listen,
  listenerCertificate,
  refuseBlocked,
  sessionFields,
  temporaryFailure,
} from './listener.js';

/**
 * What the SMTP listener needs from the rest of the program. Protocol code knows nothing about
 * storage (wildduck style): the handlers below only translate between SMTP and these calls.
 */
export interface InboundPort {
  /** an operator's blacklist entry (`manual`) or an automatic ban refuses the address; null = neither */
  blockOf(ip: string): Promise<{ automatic: boolean } | null>;
  /** counts one abusive act of a client (see ABUSE); may put its address on the blacklist */
  reportAbuse(ip: string, act: AbuseAct): Promise<void>;
  maxMessageBytes(): Promise<number>;
  checkRecipient(address: string, declaredSize: number, mailFrom?: string): Promise<RecipientCheck>;
  spool(source: Readable): Promise<Spool>;
  discard(spool: Spool): Promise<void>;
  deliver(spool: Spool, envelope: Envelope): Promise<{ messageIds: number[]; discarded: boolean }>;
}

export const SMTP_LIMITS = {
  /** simultaneous connections in all; more get 421 from smtp-server */
  maxClients: 1000,
  /**
   * simultaneous connections from one source (an IPv4 address, an IPv6 /64): more get 421 while the
   * others still get in, so one client holding slow connections cannot lock everyone out
   */
  maxClientsPerSource: 20,
  /** how long a connection over its source's share waits for one of the others to end */
  overShareWaitMs: 1_000,
  /** RFC 5321 section 4.5.3.1.8: at least 100 recipients must be accepted */
  maxRecipients: 100,
  /** bytes per DATA line; RFC 5321 section 4.5.3.1.6 asks senders for 1000, we are lenient */
  maxLineBytes: 64 * 1024,
  /** bytes of the top-level header block */
  maxHeaderBytes: 256 * 1024,
  /** idle time per command, RFC 5321 section 4.5.3.2 suggests minutes; one is plenty for us */
  socketTimeoutMs: 60_000,
};

/**
 * Abuse that puts a client's address on the blacklist for a while (an automatic ban, answered with
 * 421 so that mail of others sharing the address is delayed, never lost): guessing addresses (a
 * directory harvest: many RCPTs for mailboxes that never existed; addresses whose mailbox expired or
 * was deleted recently do not count, nor do domains awaiting verification) and smuggling attempts
 * (a bare CR, or a lone "." next to a bare LF). Counted per address over a window; a large provider's
 * shared outbound address delivering to expired temporary mailboxes never comes near these numbers.
 */
export const ABUSE = {
  windowMs: 10 * 60_000,
  banMinutes: 60,
  limits: { 'unknown-recipient': 100, 'bare-line-break': 10 },
} as const;
export type AbuseAct = keyof typeof ABUSE.limits;

export interface SmtpServerHandle {
  port: number;
  server: SMTPServer;
  /** re-reads the certificate folder (reloadCertificates) */
  reloadCertificate(): Promise<boolean>;
  close(): Promise<void>;
}

function violationReply(violation: DataViolation, maxBytes: number): SmtpReply {
  switch (violation) {
    case 'too-big':
      return Replies.tooBig(maxBytes);
    case 'bare-line-break':
      return Replies.bareLineBreak();
    case 'line-too-long':
      return Replies.lineTooLong(SMTP_LIMITS.maxLineBytes);
    case 'header-too-large':
      return Replies.structureTooLarge('header');
  }
}

function deliveryReply(error: DeliveryError, recipients: string[]): SmtpReply {
  switch (error.failure) {
    case 'no-recipients':
      return Replies.unknownRecipient(recipients[0] ?? '');
    case 'quota':
      return Replies.mailboxFull();
    case 'rejected':
      return Replies.rejectedByFilter();
    case 'auth-rejected':
      return Replies.rejectedByDmarc();
    case 'limits':
      return Replies.structureTooLarge('MIME structure');
    case 'storage-full':
      return Replies.storageFull();
    case 'storage':
      return Replies.storageFailed();
  }
}

/** The SIZE parameter of MAIL FROM (RFC 1870 section 3), 0 when absent. */
function declaredSize(address: SMTPServerAddress | false): number {
  // `address` is `false` (not nullish) before MAIL FROM.
  if (address === false || !address.args) return 0;
  const size = Number((address.args as Record<string, string>).SIZE ?? 0);
  return Number.isFinite(size) ? size : 0;
}

/** What the handlers report as they decide (the SMTP metrics); nothing by default. */
export interface SmtpObserver {
  /** the reply to DATA: 250, a 5xx refusal, or a 4xx (including failures without a reply code) */
  messageDecided(result: 'stored' | 'rejected' | 'temp_failed'): void;
}

/** The handlers of one listener, as plain functions over the port. */
export function createSmtpHandlers(
  port: InboundPort,
  log: Logger,
  observer: SmtpObserver = { messageDecided: () => {} },
) {
  const sources = createSourceLimiter({
    maxPerSource: SMTP_LIMITS.maxClientsPerSource,
    waitMs: SMTP_LIMITS.overShareWaitMs,
  });

  return {
    async onConnect(session: SMTPServerSession): Promise<void> {
      if (!(await sources.admit(session))) {
        log.info(
          `smtp: ${session.remoteAddress} over its share of connections (${sources.openOf(session)})`,
          sessionFields(session),
        );
        throw Replies.tooManyConnections();
      }
      log.debug(`smtp: session from ${session.remoteAddress}`, sessionFields(session));
      await refuseBlocked(port.blockOf, session, log, 'smtp');
    },

    onClose(session: SMTPServerSession): void {
      sources.release(session);
    },

    async onMailFrom(address: SMTPServerAddress): Promise<void> {
      // RFC 1870 section 6.1: refuse at MAIL FROM when the declared size is already too big.
      const declared = declaredSize(address);
      const limit = await port.maxMessageBytes();
      if (declared > limit) throw Replies.tooBig(limit);
    },

    async onRcptTo(address: SMTPServerAddress, session: SMTPServerSession): Promise<void> {
      if (session.envelope.rcptTo.length >= SMTP_LIMITS.maxRecipients) throw Replies.tooManyRecipients();
      const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
      const check = await port.checkRecipient(
        address.address,
        declaredSize(session.envelope.mailFrom),
        mailFrom,
      );
      const refused = check.full
        ? 'mailbox full'
        : check.pendingDomain
          ? 'domain pending'
          : !check.accepted
            ? 'unknown'
            : null;
      if (refused)
        log.info(`smtp: recipient refused (${refused})`, {
          ...sessionFields(session),
          recipient: address.address,
        });
      if (check.full) throw Replies.mailboxFull();
      if (check.pendingDomain) throw Replies.unverifiedDomain(address.address);
      if (!check.accepted) {
        if (!check.retired) await port.reportAbuse(session.remoteAddress, 'unknown-recipient');
        throw Replies.unknownRecipient(address.address);
      }
    },

    async onData(stream: SMTPServerDataStream, session: SMTPServerSession): Promise<string> {
      try {
        const reply = await receive(stream, session);
        observer.messageDecided('stored');
        return reply;
      } catch (error) {
        // smtp-server answers an error without a reply code with 450: a temporary failure too.
        observer.messageDecided(error instanceof SmtpReply && !error.transient ? 'rejected' : 'temp_failed');
        throw error;
      }
    },
  };

  /** DATA: guard, spool, store; resolves to the text of the 250 reply or throws the refusal. */
  async function receive(stream: SMTPServerDataStream, session: SMTPServerSession): Promise<string> {
    const maxBytes = await port.maxMessageBytes();
    const guard = new DataGuard({
      maxBytes,
      maxLineBytes: SMTP_LIMITS.maxLineBytes,
      maxHeaderBytes: SMTP_LIMITS.maxHeaderBytes,
    });
    const spool = await port.spool(stream.pipe(guard));
    if (guard.violation) {
      log.info(`smtp: message refused (${guard.violation})`, sessionFields(session));
      await port.discard(spool);
      if (guard.violation === 'bare-line-break')
        await port.reportAbuse(session.remoteAddress, 'bare-line-break');
      throw violationReply(guard.violation, maxBytes);
    }
    const recipients = session.envelope.rcptTo.map((rcpt) => rcpt.address);
    const mailFrom = session.envelope.mailFrom;
    try {
      const result = await port.deliver(spool, {
        mailFrom: mailFrom ? mailFrom.address : '',
        recipients,
        remoteAddress: session.remoteAddress,
        smtpSession: session.id,
        // Its presence has the store authenticate the message (SPF checks this name too).
        helo: (session.hostNameAppearsAs ?? '').slice(0, 255),
      });
      log.info(result.discarded ? 'smtp: message discarded by filters' : 'smtp: message stored', {
        ...sessionFields(session),
        messageIds: result.messageIds,
        size: spool.size,
      });
      // RFC 5321 section 4.2.5: 250 only now, after the store committed.
      return result.discarded ? 'OK' : `OK queued as ${result.messageIds.join(',')}`;
    } catch (error) {
      if (error instanceof DeliveryError) {
        log.info(`smtp: message refused (${error.failure})`, sessionFields(session));
        throw deliveryReply(error, recipients);
      }
      log.error(`smtp: delivery failed: ${(error as Error).message}`, sessionFields(session));
      throw Replies.storageFailed();
    }
  }
}

/**
 * Starts the inbound SMTP listener beside the HTTP server on `config.smtpPort` (0 = any free port,
 * for tests) and closes it when the app closes. With `secure` the same listener speaks implicit TLS
 * from the first byte instead of offering STARTTLS (RFC 8314 section 3.3; see startSmtpsServer).
 */
export async function startSmtpServer(
  app: FastifyInstance,
  options: { port?: number; host?: string; secure?: boolean; closeWithApp?: boolean } = {},
): Promise<SmtpServerHandle> {
  const { config, services } = app;
  const log = appLogger(app);
  const abuse = services.rateLimits('smtp-abuse', ABUSE.windowMs);
  const port: InboundPort = {
    blockOf: (ip) => services.firewall.blockOf(ip),
    async reportAbuse(ip, act) {
      if ((await abuse.hit(`${act}:${ip}`)) < ABUSE.limits[act]) return;
      await abuse.reset(`${act}:${ip}`);
      const reason =
        act === 'unknown-recipient'
          ? 'SMTP：大量投递到不存在的邮箱（疑似地址探测）'
          : 'SMTP：多次发送裸 CR/LF（疑似 SMTP 走私）';
      log.warn(`smtp: banned ${ip} for ${ABUSE.banMinutes} minutes (${act})`);
      await services.firewall.ban(ip, reason, ABUSE.banMinutes, 'smtp');
    },
    maxMessageBytes: () => services.inbound.maxMessageBytes(),
    checkRecipient: (address, size, mailFrom) => services.inbound.checkRecipient(address, size, mailFrom),
    spool: (source) => services.inbound.spool(source),
    discard: (spool) => services.inbound.discard(spool),
    async deliver(spool, envelope) {
      // Stored by the store worker (src/store), off this thread.
      const result = await app.messageStore.deliver(spool, envelope);
      services.mailEvents.announceCommitted(result.messageIds);
      return result;
    },
  };
  const handlers = createSmtpHandlers(port, log, {
    messageDecided: (result) => services.metrics.smtpMessage(result),
  });
  greetWithoutDelay();
  await services.inbound.prepare();
  const certificate = await listenerCertificate(app, options.secure === true);

  const server = new SMTPServer({
    name: config.mailHostname,
    banner: 'Youju ESMTP',
    size: await services.inbound.maxMessageBytes(),
    // Inbound MX: no authentication (submission is a separate concern).
    disabledCommands: ['AUTH'],
    authOptional: true,
    // RFC 3207 section 4: STARTTLS only on the plain listener, and only with a certificate to offer.
    secure: options.secure === true,
    hideSTARTTLS: options.secure === true || certificate === null,
    ...(certificate ?? {}),
    SNICallback: services.certificates.sniCallback,
    disableReverseLookup: true,
    maxClients: SMTP_LIMITS.maxClients,
    socketTimeout: SMTP_LIMITS.socketTimeoutMs,
    logger: false,
    onConnect: (session, done) =>
      callback(() => handlers.onConnect(session), done, log, session, temporaryFailure.atConnect),
    onClose: (session) => handlers.onClose(session),
    onMailFrom: (address, session, done) => callback(() => handlers.onMailFrom(address), done, log, session),
    onRcptTo: (address, session, done) =>
      callback(() => handlers.onRcptTo(address, session), done, log, session),
    onData: (stream, session, done) =>
      callback(
        async () => {
          // Keep the advertised SIZE in step with the setting (smtp-server reads it at each EHLO).
          server.options.size = await services.inbound.maxMessageBytes();
          return handlers.onData(stream, session);
        },
        (error, message) => {
          // Whatever happened, the rest of the DATA must be read before the reply (smtp-server
          // waits for the stream's end); resume in case the handler failed before reading it.
          if (error && stream.readable) stream.resume();
          done(error ?? null, message);
        },
        log,
        session,
      ),
  });
  server.on('error', (error) => log.warn(`smtp: ${error.message}`));

  const boundPort = await listen(server, options.port ?? config.smtpPort, options.host ?? config.host);
  const certificates = followCertificates(app, server, options.secure === true);

  let closing: Promise<void> | null = null;
  // Readiness (/readyz) and the open-session gauge read this listener while it lives.
  const stopTracking = services.health.trackSmtpListener({
    listening: () => closing === null && server.server.listening,
    sessions: () => server.connections.size,
  });
  const handle: SmtpServerHandle = {
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
  // (A listener started after the app is ready cannot add hooks: its starter closes it.)
  if (options.closeWithApp !== false) app.addHook('preClose', async () => handle.close());
  return handle;
}

/**
 * The optional SMTPS listener (`SMTPS_PORT`, usually 465): implicit TLS as RFC 8314 section 3.3
 * describes, with the same handlers and certificates as the port-25 listener. Returns null when the
 * port is off, or when no valid certificate exists: then the listener is not started at all rather
 * than serving a missing, expired or mismatched certificate (or smtp-server's public test key).
 */
export async function startSmtpsServer(
  app: FastifyInstance,
  options: { port?: number | null; host?: string; closeWithApp?: boolean } = {},
): Promise<SmtpServerHandle | null> {
  const port = options.port === undefined ? app.config.smtpsPort : options.port;
  if (port === null) return null;
  if (!app.services.certificates.defaultCertificate()) {
    app.log.error(
      `SMTPS 未启动：${app.services.certificates.certsDir} 下没有有效的证书（需要 <主机名>/fullchain.pem 与 privkey.pem，未过期且与私钥匹配）`,
    );
    return null;
  }
  return startSmtpServer(app, {
    port,
    ...(options.host ? { host: options.host } : {}),
    secure: true,
    ...(options.closeWithApp === false ? { closeWithApp: false } : {}),
  });
}
