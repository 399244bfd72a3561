import { sql, type Transaction } from 'kysely';
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
