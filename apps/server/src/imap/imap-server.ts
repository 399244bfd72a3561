import type { FastifyInstance } from 'fastify';
import { ApiError } from '../lib/api-error.js';
import { IMAP_LIMITS, type ImapAuthResult, ImapSession } from './imap-session.js';
import { type ListenerHandle, startMailClientListener } from './mail-client-listener.js';

export interface ImapListenerOptions {
  /** defaults to IMAP_PORT (or IMAPS_PORT with `secure`); 0 = any free port */
  port?: number;
  host?: string;
  secure?: boolean;
  /** tests: treat loopback clients as remote, so LOGIN needs TLS */
  loopbackIsRemote?: boolean;
  /** false for a listener started after the app is ready (tls-listeners.ts), which its starter closes */
  closeWithApp?: boolean;
  /** tests: other session limits (a shorter login check) */
  limits?: Partial<typeof IMAP_LIMITS>;
}

/**
 * The mailbox login of the mail-client protocols: the web's loginEmail check (throttle per account
 * and source, login history) through the auth module; the password never reaches a log.
 */
export function mailboxAuthenticator(app: FastifyInstance) {
  return async (email: string, password: string, ip: string): Promise<ImapAuthResult> => {
    try {
      const mailbox = await app.services.auth.authenticateMailbox(email, password, {
        ip,
        userAgent: 'mail client',
      });
      return {
        ok: true,
        mailboxId: mailbox.id,
        address: mailbox.address,
        passwordHash: mailbox.password_hash,
      };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === 429)
        return { ok: false, reason: 'throttled', text: 'too many failed logins, try later' };
      if (error.code === 403)
        return { ok: false, reason: 'refused', text: 'this mailbox is disabled or expired' };
      return { ok: false, reason: 'wrong', text: 'wrong address or password' };
    }
  };
}

/**
 * The IMAP listener (IMAP_PORT, STARTTLS; or IMAPS_PORT, implicit TLS): each connection is an
 * ImapSession over the folder service. Null when the port is off or a secure listener has no
 * certificate.
 */
export async function startImapServer(
  app: FastifyInstance,
  options: ImapListenerOptions = {},
): Promise<ListenerHandle | null> {
  const secure = options.secure === true;
  const port = options.port ?? (secure ? app.config.imapsPort : app.config.imapPort);
  if (port === null) return null;
  const authenticate = mailboxAuthenticator(app);
  const log = {
    info: (message: string) => app.log.info(message),
    warn: (message: string) => app.log.warn(message),
  };
  return startMailClientListener(
    app,
    'imap',
    {
      port,
      secure,
      ...(options.host ? { host: options.host } : {}),
      ...(options.loopbackIsRemote ? { loopbackIsRemote: true } : {}),
      ...(options.closeWithApp === false ? { closeWithApp: false } : {}),
    },
    IMAP_LIMITS,
    async (connection) => {
      const session = new ImapSession(
        connection.socket,
        {
          folders: app.services.folders,
          authenticate,
          secureContext: connection.secureContext,
          sniCallback: app.services.certificates.sniCallback,
          log,
          ...(options.limits ? { limits: options.limits } : {}),
        },
        connection,
      );
      await session.run();
    },
  );
}
