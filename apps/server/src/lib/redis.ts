import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';

/**
 * ioredis, loaded with the first connection: a server without REDIS_URL (the usual one) spares the
 * 2 MiB of heap it takes, in each of its threads.
 */
const loadIoredis = (): typeof import('ioredis') => createRequire(import.meta.url)('ioredis');

/** Pauses before connecting again after Redis went away: doubling from the first to the cap. */
const RECONNECT_FIRST_MS = 250;
const RECONNECT_MAX_MS = 10_000;
/** A command that gets no answer in this time fails (a hung or overloaded Redis), so no request waits on it. */
const COMMAND_TIMEOUT_MS = 2_000;
const CONNECT_TIMEOUT_MS = 5_000;
/** How long close() waits for QUIT before it drops the socket. */
const QUIT_TIMEOUT_MS = 1_000;

export interface RedisLog {
  info(message: string): void;
  warn(message: string): void;
}

export interface RedisConnection {
  readonly client: Redis;
  /** Whether the connection is up now (commands fail at once while it is not). */
  ready(): boolean;
  close(): Promise<void>;
}

/** The delay before reconnect attempt `attempt` (1, 2, …). */
export function reconnectDelay(attempt: number): number {
  return Math.min(RECONNECT_FIRST_MS * 2 ** Math.min(attempt - 1, 16), RECONNECT_MAX_MS);
}

/**
 * One connection to `REDIS_URL` (`redis://` or `rediss://`, which is TLS with the certificate checked
 * against Node's trusted authorities and NODE_EXTRA_CA_CERTS; a database number may follow the
 * host, `redis://host/2`). It never throws at the
 * process: errors are logged once per outage, and it reconnects for ever with a backoff.
 * Commands fail at once while it is down (no offline queue: a request must not wait for Redis to
 * come back), and after {@link COMMAND_TIMEOUT_MS} when Redis does not answer.
 * `role` names it in the log ("events", "limits"); the URL, which may carry a password, is never logged.
 */
export function connectRedis(
  url: string,
  role: string,
  log: RedisLog,
  options: { offlineQueue?: boolean } = {},
): RedisConnection {
  const { Redis } = loadIoredis();
  const client = new Redis(url, {
    lazyConnect: false,
    enableOfflineQueue: options.offlineQueue === true,
    // Commands never wait for a reconnect: with no offline queue they fail at once instead.
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    retryStrategy: (attempt) => reconnectDelay(attempt),
    // A subscriber connection subscribes again after a reconnect, so events resume by themselves.
    autoResubscribe: true,
    connectionName: `youju-${role}`,
  });
  let healthy = true;
  let closing = false;
  client.on('error', (error: Error) => {
    // Without this listener an unreachable Redis would be an uncaught 'error' event: a crash.
    if (!healthy || closing) return;
    healthy = false;
    log.warn(`redis (${role}): ${error.message}; reconnecting in the background`);
  });
  client.on('ready', () => {
    if (!healthy) log.info(`redis (${role}): connected again`);
    healthy = true;
  });
  client.on('end', () => {
    if (!closing) healthy = false;
  });
  return {
    client,
    ready: () => client.status === 'ready',
    async close() {
      closing = true;
      if (client.status === 'end') return;
      const timer = new Promise<void>((resolve) => setTimeout(resolve, QUIT_TIMEOUT_MS).unref());
      try {
        if (client.status === 'ready') await Promise.race([client.quit().then(() => {}), timer]);
      } catch {
        // closing anyway
      }
      client.disconnect(false);
    },
  };
}
