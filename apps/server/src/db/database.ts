import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

export type Engine = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  engine: Engine;
  /** PostgreSQL pool, for LISTEN/NOTIFY; null on SQLite */
  pool: pg.Pool | null;
  close(): Promise<void>;
}

/** int8 (count(*), bigint columns) arrives as a string from pg; our values fit in a double. */
const INT8_OID = 20;
const pgTypes = {
  getTypeParser(oid: number, format?: string) {
    if (oid === INT8_OID) return (value: string) => Number(value);
    // biome-ignore lint/suspicious/noExplicitAny: pg's own overloads do not accept the union
    return pg.types.getTypeParser(oid, format as any);
  },
};

export function openDatabase(options: { databaseUrl: string | null; dataDir: string }): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10, types: pgTypes });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, engine: 'postgres', pool, close: () => db.destroy() };
  }
  mkdirSync(options.dataDir, { recursive: true });
  const sqlite = new SqliteDatabase(join(options.dataDir, 'youju.sqlite'));
  sqlite.pragma('journal_mode = WAL');
  // FULL: a commit is on disk before it returns, so "250 OK" survives power loss, not just a crash.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, engine: 'sqlite', pool: null, close: () => db.destroy() };
}
