import { sql, type Transaction } from 'kysely';
import type { Engine } from './database.js';
import type { Database } from './schema.js';

/**
 * Makes the transaction's commit wait until it is on disk. PostgreSQL's default, but a server
 * configured with synchronous_commit=off would otherwise acknowledge work that a crash can still
 * lose. SQLite commits durably already (synchronous=FULL, set in database.ts), or, on the store
 * worker's connection, its group commit syncs the WAL before answering (wal-sync.ts).
 */
export async function requireSynchronousCommit(trx: Transaction<Database>, engine: Engine): Promise<void> {
  if (engine === 'postgres') await sql`set local synchronous_commit = on`.execute(trx);
}
