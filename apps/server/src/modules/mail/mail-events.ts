import { EventEmitter } from 'node:events';
import type { Transaction } from 'kysely';
import type pg from 'pg';
import { notify, startListening, stopListening } from '../../db/notifications.js';
import type { Database } from '../../db/schema.js';

/** PostgreSQL channel carrying the ids of newly stored messages. */
const CHANNEL = 'youju_mail';

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

  async function listen(): Promise<void> {
    if (!pool || client || closed) return;
    const connection = await pool.connect();
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
      log.warn(`mail events: listener connection lost (${error.message}); reconnecting`);
      client = null;
      connection.release(true);
      if (!closed) setTimeout(() => void listen().catch(() => undefined), 1000).unref();
    });
    await startListening(connection, CHANNEL);
    client = connection;
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
