import { sql, type Transaction } from 'kysely';
import type pg from 'pg';
import type { Database } from './schema.js';

/**
 * PostgreSQL LISTEN/NOTIFY. A notification sent inside a transaction is delivered only when that
 * transaction commits, and never when it rolls back.
 */
export async function notify(trx: Transaction<Database>, channel: string, payload: string): Promise<void> {
  await sql`select pg_notify(${channel}, ${payload})`.execute(trx);
}

/** Starts receiving `channel`'s notifications on a connection of its own (`notification` events). */
export async function startListening(connection: pg.PoolClient, channel: string): Promise<void> {
  await connection.query(`LISTEN ${channel}`);
}

export async function stopListening(connection: pg.PoolClient, channel: string): Promise<void> {
  await connection.query(`UNLISTEN ${channel}`);
}
