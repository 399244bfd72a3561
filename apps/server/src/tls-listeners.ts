import type { FastifyInstance } from 'fastify';

/** What every listener start function hands back. */
interface Closable {
  port: number;
  close(): Promise<void>;
}

/** An implicit-TLS listener that may start later, once a certificate exists. */
export interface DeferredListener<T extends Closable> {
  /** the running listener, or null while it waits for a certificate (or when its port is off) */
  readonly current: T | null;
  /** its port once listening, else null */
  readonly port: number | null;
  /** resolves with the listener once it listens (tests), or null if the app closed first */
  started(): Promise<T | null>;
}

/**
 * Starts an implicit-TLS listener (SMTPS, SUBMISSIONS, IMAPS, POP3S, HTTPS) now if a valid certificate
 * exists, and otherwise as soon as one appears: after the first ACME issuance or a
 * reloadCertificates, without a restart. These listeners speak TLS from the first byte (RFC 8314
 * section 3.3), so they are never started without a certificate (nor with a self-signed stand-in).
 *
 * Must be called before the app is ready: it registers the close hook here (Fastify takes no hooks
 * later), and the listener itself is started with `closeWithApp: false`. On close it stops waiting,
 * waits for a start in progress, then closes the listener.
 *
 * `start` is the listener's own start function; it returns null when its port is off.
 */
export async function startWhenCertified<T extends Closable>(
  app: FastifyInstance,
  name: string,
  enabled: boolean,
  start: () => Promise<T | null>,
): Promise<DeferredListener<T>> {
  const certificates = app.services.certificates;
  let current: T | null = null;
  let starting: Promise<T | null> | null = null;
  let closing = false;
  let stopWaiting: (() => void) | null = null;
  const waiters: Array<(value: T | null) => void> = [];

  const launch = (): Promise<T | null> => {
    if (starting) return starting;
    starting = start().then(
      (listener) => {
        current = listener;
        if (listener) app.log.info(`${name} listening on port ${listener.port}`);
        for (const resolve of waiters.splice(0)) resolve(listener);
        return listener;
      },
      (error: unknown) => {
        // E.g. the port is taken: the rest of the service runs on, the log says why.
        app.log.error(`${name} 未启动：${(error as Error).message}`);
        for (const resolve of waiters.splice(0)) resolve(null);
        return null;
      },
    );
    return starting;
  };

  app.addHook('preClose', async () => {
    closing = true;
    stopWaiting?.();
    for (const resolve of waiters.splice(0)) resolve(null);
    const listener = starting ? await starting : null;
    await listener?.close();
  });

  if (enabled) {
    if (certificates.defaultCertificate()) {
      await launch();
    } else {
      app.log.warn(`${name} 将在 ${certificates.certsDir} 下出现有效证书（ACME 签发或重新加载证书）后启动`);
      stopWaiting = certificates.onReload(() => {
        if (closing || starting || !certificates.defaultCertificate()) return;
        stopWaiting?.();
        stopWaiting = null;
        void launch();
      });
    }
  }

  return {
    get current() {
      return current;
    },
    get port() {
      return current?.port ?? null;
    },
    started() {
      if (current || closing || !enabled) return Promise.resolve(current);
      if (starting) return starting;
      return new Promise((resolve) => waiters.push(resolve));
    },
  };
}
