import type { FastifyInstance } from 'fastify';
import { mailboxAuthenticator } from '../imap/imap-server.js';
import { type ListenerHandle, startMailClientListener } from '../imap/mail-client-listener.js';
import { POP3_LIMITS, Pop3Session } from './pop3-session.js';

export interface Pop3ListenerOptions {
  /** defaults to POP3_PORT (or POP3S_PORT with `secure`); 0 = any free port */
  port?: number;
  host?: string;
  secure?: boolean;
  /** tests: treat loopback clients as remote, so USER/PASS need TLS */
  loopbackIsRemote?: boolean;
  /** false for a listener started after the app is ready (tls-listeners.ts), which its starter closes */
  closeWithApp?: boolean;
}

/**
 * The POP3 listener (POP3_PORT with STLS, or POP3S_PORT with implicit TLS), sharing the IMAP
 * listener's caps, certificates and login. Null when the port is off or a secure listener has no
 * certificate.
 */
export async function startPop3Server(
  app: FastifyInstance,
  options: Pop3ListenerOptions = {},
): Promise<ListenerHandle | null> {
  const secure = options.secure === true;
  const port = options.port ?? (secure ? app.config.pop3sPort : app.config.pop3Port);
  if (port === null) return null;
  const authenticate = mailboxAuthenticator(app);
  const log = {
    info: (message: string) => app.log.info(message),
    warn: (message: string) => app.log.warn(message),
  };
  return startMailClientListener(
    app,
    'pop3',
    {
      port,
      secure,
      ...(options.host ? { host: options.host } : {}),
      ...(options.loopbackIsRemote ? { loopbackIsRemote: true } : {}),
      ...(options.closeWithApp === false ? { closeWithApp: false } : {}),
    },
    POP3_LIMITS,
    async (connection) => {
      const session = new Pop3Session(
        connection.socket,
        {
          folders: app.services.folders,
          authenticate,
          secureContext: connection.secureContext,
          sniCallback: app.services.certificates.sniCallback,
          log,
        },
        connection,
      );
      await session.run();
    },
  );
}
