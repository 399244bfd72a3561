import { EventEmitter } from 'node:events';
import type { Transaction } from 'kysely';
import type pg from 'pg';
import { notify, startListening, stopListening } from '../../db/notifications.js';
import type { Database } from '../../db/schema.js';

/** PostgreSQL channel carrying the ids of newly stored messages. */
const CHANNEL = 'youju_mail';

/** Pauses before listening again after the connection was lost: doubling from the first to the cap. */
const RECONNECT_FIRST_MS = 500;
const RECONNECT_MAX_MS = 10_000;

export type NewMailListener = (messageIds: number[]) => void;

/**
 * "New mail" notifications for the live inbox (server-sent events). On PostgreSQL they travel by
 * LISTEN/NOTIFY, so a message received by one process reaches browsers connected to another; the
 * NOTIFY is issued inside the storing transaction, and PostgreSQL delivers it only on commit
 * (never for mail that was rolled back). On SQLite there is one process, and an in-process emitter
 * is told after the commit.
 */
export function createMailEvents(pool: pg.Pool | null, log: { warn(message: string): void }) {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  let client: pg.PoolClient | null = null;
  let starting: Promise<void> | null = null;
  let closed = false;
  let reconnectDelay = RECONNECT_FIRST_MS;
  let reconnectTimer: NodeJS.Timeout | null = null;

  async function listen(): Promise<void> {
    if (!pool || client || closed) return;
    const connection = await pool.connect();
    let lost = false;
    // The server ending the connection (a restart, a failover) may be told twice: its error
    // message, then the closed socket. The connection is given back, destroyed, once.
    const drop = (error: Error) => {
      if (lost) return false;
      lost = true;
      if (client === connection) client = null;
      connection.release(error);
      return true;
    };
    connection.on('notification', (message) => {
      if (message.channel !== CHANNEL || !message.payload) return;
      try {
        const ids = JSON.parse(message.payload) as number[];
        emitter.emit('mail', ids);
      } catch {
        // not ours
      }
    });
    connection.on('error', (error) => {
      if (!drop(error) || closed) return;
      log.warn(`mail events: listener connection lost (${error.message}); reconnecting`);
      reconnectLater();
    });
    try {
      await startListening(connection, CHANNEL);
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

  /**
   * Tries again after a pause that doubles up to a cap, so a database that stays away for a while
   * is not hammered. Notifications sent meanwhile are lost to this process (the mail is stored;
   * an open inbox shows it at its next refresh).
   */
  function reconnectLater(): void {
    if (closed || reconnectTimer) return;
    const delay = reconnectDelay;
    reconnectDelay = Math.min(reconnectDelay * 2, RECONNECT_MAX_MS);
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      listen().catch((error: unknown) => {
        log.warn(`mail events: cannot listen yet (${(error as Error).message}); retrying`);
        reconnectLater();
      });
    }, delay);
    reconnectTimer.unref();
  }

  return {
    /** Starts listening (PostgreSQL); safe to call more than once. */
    async start(): Promise<void> {
      starting ??= listen();
      await starting;
    },

    /** Called inside the storing transaction. */
    async announceInTransaction(trx: Transaction<Database>, messageIds: number[]): Promise<void> {
      if (!pool || messageIds.length === 0) return;
      await notify(trx, CHANNEL, JSON.stringify(messageIds));
    },

    /** Called after the commit. */
    announceCommitted(messageIds: number[]): void {
      if (pool || messageIds.length === 0) return;
      emitter.emit('mail', messageIds);
    },

    subscribe(listener: NewMailListener): () => void {
      emitter.on('mail', listener);
      return () => emitter.off('mail', listener);
    },

    async close(): Promise<void> {
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      emitter.removeAllListeners();
      if (client) {
        const connection = client;
        client = null;
        try {
          await stopListening(connection, CHANNEL);
        } catch {
          // closing anyway
        }
        connection.release();
      }
    },
  };
}

export type MailEvents = ReturnType<typeof createMailEvents>;
