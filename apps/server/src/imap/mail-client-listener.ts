import { setMaxListeners } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import {
  createSecureContext,
  createServer as createTlsServer,
  type SecureContext,
  type TLSSocket,
} from 'node:tls';
import type { FastifyInstance } from 'fastify';
import { SHUTDOWN_LIMITS } from '../lib/shutdown.js';
import { selfSignedCertificate } from '../modules/certificates/index.js';
import { isLoopback, sourceKey } from '../smtp/listener.js';

/**
 * What IMAP and POP3 listeners share: plain (with STARTTLS/STLS) or implicit-TLS sockets, the
 * certificate store's contexts (reloaded without a restart, as the SMTP listener does), connection
 * caps in all and per source, the blacklist, and the loopback rule for logins without TLS.
 */
export interface ListenerLimits {
  maxClients: number;
  maxClientsPerSource: number;
}

export interface MailClientConnection {
  socket: Socket;
  remoteAddress: string;
  secure: boolean;
  /** LOGIN without TLS is allowed: the client is on loopback (API.md "Standard mail clients") */
  plainLoginAllowed: boolean;
  /** the STARTTLS/STLS context now, or null when none can be offered */
  secureContext(): SecureContext | null;
  /** aborted when the listener closes (server shutdown): the session says goodbye and ends */
  shutdown: AbortSignal;
}

export interface ListenerHandle {
  port: number;
  server: Server;
  close(): Promise<void>;
}

export interface ListenerOptions {
  port: number;
  host?: string;
  secure: boolean;
  /** tests: treat loopback clients as remote (the LOGINDISABLED path) */
  loopbackIsRemote?: boolean;
  /** false for a listener started after the app is ready (tls-listeners.ts), which its starter closes */
  closeWithApp?: boolean;
}

/**
 * Starts a listener for `protocol` whose connections go to `serve`. Returns null when a secure
 * listener has no valid certificate (like SMTPS: never serve a missing or mismatched one).
 */
export async function startMailClientListener(
  app: FastifyInstance,
  protocol: 'imap' | 'pop3',
  options: ListenerOptions,
  limits: ListenerLimits,
  serve: (connection: MailClientConnection) => Promise<void>,
): Promise<ListenerHandle | null> {
  const { config, services } = app;
  const label = protocol.toUpperCase();
  const installed = services.certificates.defaultCertificate();
  if (options.secure && !installed) {
    app.log.error(`${label}S 未启动：${services.certificates.certsDir} 下没有有效的证书`);
    return null;
  }
  // Until the operator installs a certificate, STARTTLS offers a self-signed one for MAIL_HOSTNAME.
  const fallback = installed ? null : await selfSignedCertificate(config.dataDir, config.mailHostname);
  let context: SecureContext | null = installed
    ? createSecureContext(installed)
    : fallback
      ? createSecureContext(fallback)
      : null;

  const open = new Map<string, number>();
  let total = 0;
  const shutdown = new AbortController();
  // Every open session listens for the shutdown: as many as the listener admits, not a leak.
  setMaxListeners(limits.maxClients + 50, shutdown.signal);

  async function accept(socket: Socket, secure: boolean): Promise<void> {
    const remoteAddress = socket.remoteAddress ?? '';
    const key = sourceKey(remoteAddress);
    if (total >= limits.maxClients || (open.get(key) ?? 0) >= limits.maxClientsPerSource) {
      socket.end(
        protocol === 'imap'
          ? '* BYE too many connections, try again later\r\n'
          : '-ERR [SYS/TEMP] too many connections\r\n',
      );
      socket.destroySoon?.();
      return;
    }
    total++;
    open.set(key, (open.get(key) ?? 0) + 1);
    try {
      const block = await services.firewall.blockOf(remoteAddress);
      if (block) {
        socket.end(protocol === 'imap' ? '* BYE access denied\r\n' : '-ERR access denied\r\n');
        return;
      }
      await serve({
        socket,
        remoteAddress,
        secure,
        plainLoginAllowed: isLoopback(remoteAddress) && !options.loopbackIsRemote,
        secureContext: () => context,
        shutdown: shutdown.signal,
      });
    } catch (error) {
      app.log.warn(`${protocol}: connection failed: ${(error as Error).message}`);
      socket.destroy();
    } finally {
      total--;
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    }
  }

  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  };
  const server: Server = options.secure
    ? createTlsServer(
        {
          ...(installed ?? {}),
          SNICallback: services.certificates.sniCallback,
          handshakeTimeout: 30_000,
        },
        (socket: TLSSocket) => {
          track(socket);
          void accept(socket, true);
        },
      )
    : createServer((socket) => {
        track(socket);
        void accept(socket, false);
      });
  server.maxConnections = limits.maxClients + 50;
  server.on('error', (error) => app.log.warn(`${protocol}: ${error.message}`));

  const stopFollowing = services.certificates.onReload(() => {
    const next = services.certificates.defaultCertificate();
    if (!next) return;
    context = createSecureContext(next);
    if (options.secure && 'setSecureContext' in server)
      (server as ReturnType<typeof createTlsServer>).setSecureContext(next);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  let closing: Promise<void> | null = null;
  const handle: ListenerHandle = {
    port,
    server,
    /**
     * Stops accepting, then every session says goodbye (IMAP `* BYE`, POP3 `-ERR`) at its next
     * read: at once when it waits for its client (IDLE too), after the command in progress
     * otherwise. What is still open after the grace period is cut. One shutdown, however often
     * asked (server.ts starts it, the app's preClose awaits it).
     */
    close() {
      closing ??= (async () => {
        stopFollowing();
        const done = new Promise<void>((resolve) => server.close(() => resolve()));
        shutdown.abort();
        let timer: NodeJS.Timeout | undefined;
        const graceOver = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, SHUTDOWN_LIMITS.graceMs);
        });
        await Promise.race([done, graceOver]);
        clearTimeout(timer);
        // The port stopped listening at server.close(); a TLS handshake still running (not yet a
        // session) is not waited for.
        for (const socket of sockets) socket.destroy();
      })();
      return closing;
    },
  };
  if (options.closeWithApp !== false) app.addHook('preClose', async () => handle.close());
  return handle;
}
