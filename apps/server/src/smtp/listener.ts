import type { FastifyInstance } from 'fastify';
import type { SMTPServer, SMTPServerSession } from 'smtp-server';
import { selfSignedCertificate } from '../modules/certificates/index.js';
import { Replies, SmtpReply } from '../protocols/smtp/smtp-reply.js';
import { loadCertificate } from './tls-certificates.js';

/**
 * What the inbound listener (smtp-server.ts) and the submission listener (submission-server.ts)
 * share: connection shares per source, smtp-server's callback style, the TLS certificate with its
 * reloads, and listening.
 */

/** The fields of a log line; `smtpSession` ties every line of one SMTP session together. */
export type LogContext = Record<string, unknown>;

export interface Logger {
  debug(message: string, context?: LogContext): void;
  info(message: string, context?: LogContext): void;
  warn(message: string, context?: LogContext): void;
  error(message: string, context?: LogContext): void;
}

/** The app's pino logger, with the context as the line's fields. */
export function appLogger(app: FastifyInstance): Logger {
  return {
    debug: (message, context) => app.log.debug(context ?? {}, message),
    info: (message, context) => app.log.info(context ?? {}, message),
    warn: (message, context) => app.log.warn(context ?? {}, message),
    error: (message, context) => app.log.error(context ?? {}, message),
  };
}

/** The fields that name a session in the log (smtp-server gives each one a random id). */
export function sessionFields(session: SMTPServerSession): LogContext {
  return { smtpSession: session.id };
}

/** The key a source's connections are counted under: the address, or its /64 for IPv6. */
export function sourceKey(ip: string): string {
  const address = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  if (!address.includes(':')) return address;
  const groups = address.split('::');
  const head = (groups[0] ?? '').split(':').filter(Boolean);
  const tail = groups.length > 1 ? (groups[1] ?? '').split(':').filter(Boolean) : [];
  const full = [...head, ...Array(Math.max(0, 8 - head.length - tail.length)).fill('0'), ...tail];
  return `${full.slice(0, 4).join(':')}::/64`;
}

/** Whether the client is on this machine (127.0.0.0/8, ::1, or IPv4-mapped loopback). */
export function isLoopback(ip: string): boolean {
  const address = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  return address === '::1' || /^127\./.test(address);
}

/**
 * Open sessions per source, so that one source holding many connections cannot lock everyone out.
 * A connection over its source's share waits up to `waitMs` for one of the source's sessions to end:
 * a sender that opens its next connection as it closes the last one (Postfix's smtp-source, most
 * MTAs' connection reuse) is briefly one over its share while the old socket's close is still on its
 * way, and must not be refused for that.
 */
export function createSourceLimiter(limits: { maxPerSource: number; waitMs: number }) {
  const open = new Map<string, number>();
  const counted = new WeakSet<SMTPServerSession>();
  const waiting = new Map<string, Set<() => void>>();

  function slotFreed(key: string, ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const waiters = waiting.get(key) ?? new Set();
      waiting.set(key, waiters);
      const settle = (freed: boolean) => {
        waiters.delete(wake);
        if (waiters.size === 0 && waiting.get(key) === waiters) waiting.delete(key);
        resolve(freed);
      };
      const wake = () => {
        clearTimeout(timer);
        settle(true);
      };
      const timer = setTimeout(() => settle(false), ms);
      waiters.add(wake);
    });
  }

  return {
    /** Counts the session in, or answers false when its source stays over its share. */
    async admit(session: SMTPServerSession): Promise<boolean> {
      const key = sourceKey(session.remoteAddress);
      while ((open.get(key) ?? 0) >= limits.maxPerSource) {
        if (!(await slotFreed(key, limits.waitMs))) return false;
      }
      open.set(key, (open.get(key) ?? 0) + 1);
      counted.add(session);
      return true;
    },
    openOf(session: SMTPServerSession): number {
      return open.get(sourceKey(session.remoteAddress)) ?? 0;
    },
    release(session: SMTPServerSession): void {
      if (!counted.has(session)) return;
      counted.delete(session);
      const key = sourceKey(session.remoteAddress);
      const count = (open.get(key) ?? 1) - 1;
      if (count > 0) open.set(key, count);
      else open.delete(key);
      // One waiting connection of the source may take the freed place.
      waiting.get(key)?.values().next().value?.();
    },
  };
}

/**
 * RFC 5321 section 4.2.2: 421 at the greeting (the session closes), 451 for a command: a failure of
 * ours that is likely to pass (the database restarting or refusing connections), so the sender
 * keeps the message and tries again. smtp-server would answer a bare error with a permanent 550 or
 * 554 and its internal text.
 */
export const temporaryFailure = {
  atConnect: () => new SmtpReply(421, '4.3.0', 'Service temporarily unavailable, try again later'),
  atCommand: () => new SmtpReply(451, '4.3.0', 'Temporary local error, try again later'),
};

/**
 * Turns a promise-returning handler into smtp-server's callback style. A reply the handler chose
 * goes out as it is; any other failure is logged and answered with `failed` (temporary).
 */
export function callback<T>(
  run: () => Promise<T>,
  done: (error?: Error | null, value?: T) => void,
  log: Logger,
  session: SMTPServerSession,
  failed: () => SmtpReply = temporaryFailure.atCommand,
): void {
  run().then(
    (value) => done(null, value),
    (error: unknown) => {
      if (error instanceof SmtpReply) return done(error);
      log.warn(`smtp: ${error instanceof Error ? error.message : String(error)}`, sessionFields(session));
      done(failed());
    },
  );
}

/** The blacklist check every listener makes at connect: 554 for an operator's entry, 421 for a ban. */
export async function refuseBlocked(
  blockOf: (ip: string) => Promise<{ automatic: boolean } | null>,
  session: SMTPServerSession,
  log: Logger,
  what: string,
): Promise<void> {
  const block = await blockOf(session.remoteAddress);
  if (!block) return;
  log.info(
    `${what}: refused ${block.automatic ? 'banned' : 'blacklisted'} ${session.remoteAddress}`,
    sessionFields(session),
  );
  throw block.automatic ? Replies.temporarilyBlocked() : Replies.blocked();
}

/**
 * The certificate a listener starts with: the certificate service's default pair (MAIL_HOSTNAME's,
 * from DATA_DIR/certs; SNI names are answered at each handshake). Until the operator installs one, a
 * plain listener offers STARTTLS with a self-signed certificate for MAIL_HOSTNAME (never
 * smtp-server's built-in, expired `localhost` key); an implicit-TLS listener gets null.
 */
export async function listenerCertificate(
  app: FastifyInstance,
  secure: boolean,
): Promise<{ key: Buffer | string; cert: Buffer | string } | null> {
  const { config, services } = app;
  return (
    services.certificates.defaultCertificate() ??
    (secure ? null : await selfSignedCertificate(config.dataDir, config.mailHostname))
  );
}

/** Listens on `port` (0 = any free port, for tests) and answers the port bound. */
export async function listen(server: SMTPServer, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const address = server.server.address();
  return typeof address === 'object' && address ? address.port : port;
}

/**
 * reloadCertificates: new handshakes (STARTTLS or implicit TLS) get the new default, SNI names are
 * answered from the service at each handshake; open sessions keep theirs. Returns how to stop
 * following, and how to re-read the certificate folder by hand (a handle's `reloadCertificate`).
 */
export function followCertificates(app: FastifyInstance, server: SMTPServer, secure: boolean) {
  const { config, services } = app;
  const stop = services.certificates.onReload(() => {
    const next = services.certificates.defaultCertificate();
    if (!next) return;
    if (!secure) server.options.hideSTARTTLS = false;
    server.updateSecureContext(next);
  });
  return {
    stop,
    async reload(): Promise<boolean> {
      const next = await loadCertificate(config.dataDir, config.mailHostname);
      if (!next) return false;
      if (!secure) server.options.hideSTARTTLS = false;
      server.updateSecureContext(next);
      return true;
    },
  };
}

/**
 * Shuts an smtp-server listener down without losing what was acknowledged (RFC 5321 section 3.8:
 * a server that must shut down answers 421 and closes). It stops accepting at once; every session
 * waiting for its client's next command (idle, or between commands) gets `421 4.3.2` now, and a
 * session inside a step (DATA being received and stored, a handler deciding) finishes it, gets its
 * reply (the 250 only after the commit), then the 421. After `graceMs` what is still open is cut
 * (smtp-server's closeTimeout): none of it was acknowledged, so its client sends it again.
 */
export function closeSmtpServer(server: SMTPServer, graceMs: number): Promise<void> {
  const reply = Replies.shuttingDown();
  const farewell = () => {
    for (const connection of server.connections) {
      const busy = connection._dataStream || connection._handlerPending || connection._upgrading;
      // The enhanced code leads the text (ENHANCEDSTATUSCODES is not advertised: smtp-reply.ts).
      if (!busy) connection.send(reply.responseCode, reply.message, false);
    }
  };
  server.options.closeTimeout = graceMs;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  farewell();
  // A session finishing its step is told right after its reply: its next command would otherwise
  // get smtp-server's own 421, without the enhanced code.
  const timer = setInterval(farewell, 20);
  return closed.finally(() => clearInterval(timer));
}
