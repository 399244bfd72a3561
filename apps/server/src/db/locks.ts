import { type Kysely, sql, type Transaction } from 'kysely';
import type { Engine } from './database.js';
import type { Database } from './schema.js';

/**
 * Serialises transactions that share `key` on PostgreSQL: a transaction-level advisory lock, held
 * until the transaction ends. SQLite runs one writing transaction at a time already, so there it
 * does nothing.
 */
export async function lockForTransaction(
  trx: Transaction<Database>,
  engine: Engine,
  key: string,
): Promise<void> {
  if (engine === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
}

/**
 * Runs `work` only if no other process holds `key`, and answers null without running it otherwise.
 * On PostgreSQL a session-level advisory lock on one pinned connection (several processes share the
 * database; the lock ends with the connection if the process dies); SQLite belongs to one process,
 * so there `work` just runs. For long jobs that must not hold a transaction open (an ACME order).
 */
export async function withSessionLock<T>(
  db: Kysely<Database>,
  engine: Engine,
  key: string,
  work: () => Promise<T>,
): Promise<T | null> {
  if (engine !== 'postgres') return work();
  return db.connection().execute(async (connection) => {
    const { rows } = await sql<{
      locked: boolean;
    }>`select pg_try_advisory_lock(hashtext(${key})) as locked`.execute(connection);
    if (!rows[0]?.locked) return null;
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(hashtext(${key}))`.execute(connection);
    }
  });
}
