import type pg from 'pg';
import { notify, startListening, stopListening } from '../db/notifications.js';
import { createSubscribers, type EventTransport } from './event-transport.js';

/** Pauses before listening again after the connection was lost: doubling from the first to the cap. */
const RECONNECT_FIRST_MS = 500;
const RECONNECT_MAX_MS = 10_000;

/** PostgreSQL's channel for one of ours: `youju_mail` (an identifier, so letters and underscores only). */
const channelName = (channel: string) => `youju_${channel}`;

/**
 * Events by PostgreSQL LISTEN/NOTIFY, for several processes against one database. A NOTIFY sent
 * inside a transaction is delivered only when that transaction commits, never when it rolls back.
 * One connection of the pool listens on every channel; when it is lost (a restart, a failover)
 * it listens again after a pause. Events sent meanwhile are lost to this process.
 */
export function postgresEventTransport(
  pool: pg.Pool,
  channels: readonly string[],
  log: { warn(message: string): void },
): EventTransport {
  const subscribers = createSubscribers();
  const byName = new Map(channels.map((channel) => [channelName(channel), channel]));
  let client: pg.PoolClient | null = null;
  let starting: Promise<void> | null = null;
  let closed = false;
  let reconnectDelay = RECONNECT_FIRST_MS;
  let reconnectTimer: NodeJS.Timeout | null = null;

  async function listen(): Promise<void> {
    if (client || closed) return;
    const connection = await pool.connect();
    let lost = false;
    // The server ending the connection may be told twice: its error message, then the closed
    // socket. The connection is given back, destroyed, once.
    const drop = (error: Error) => {
      if (lost) return false;
      lost = true;
      if (client === connection) client = null;
      connection.release(error);
      return true;
    };
    connection.on('notification', (message) => {
      const channel = byName.get(message.channel);
      if (channel && message.payload !== undefined) subscribers.deliver(channel, message.payload);
    });
    connection.on('error', (error) => {
      if (!drop(error) || closed) return;
      log.warn(`events: listener connection lost (${error.message}); reconnecting`);
      reconnectLater();
    });
    try {
      for (const name of byName.keys()) await startListening(connection, name);
    } catch (error) {
      drop(error as Error);
      throw error;
    }
    if (lost) throw new Error('listener connection lost while it started');
    if (closed) {
      connection.release(true);
      return;
    }
    client = connection;
    reconnectDelay = RECONNECT_FIRST_MS;
  }

  /** Tries again after a pause that doubles up to a cap, so a database that stays away is not hammered. */
  function reconnectLater(): void {
    if (closed || reconnectTimer) return;
    const delay = reconnectDelay;
    reconnectDelay = Math.min(reconnectDelay * 2, RECONNECT_MAX_MS);
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      listen().catch((error: unknown) => {
        log.warn(`events: cannot listen yet (${(error as Error).message}); retrying`);
        reconnectLater();
      });
    }, delay);
    reconnectTimer.unref();
  }

  return {
    publishesInTransaction: true,
    async publish(channel, payload, trx) {
      if (!byName.has(channelName(channel))) throw new Error(`unknown event channel ${channel}`);
      if (!trx) throw new Error('a PostgreSQL notification is sent inside its transaction');
      await notify(trx, channelName(channel), payload);
    },
    subscribe: subscribers.subscribe,
    async start() {
      starting ??= listen();
      await starting;
    },
    async close() {
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      subscribers.clear();
      if (client) {
        const connection = client;
        client = null;
        try {
          for (const name of byName.keys()) await stopListening(connection, name);
        } catch {
          // closing anyway
        }
        connection.release();
      }
    },
  };
}
