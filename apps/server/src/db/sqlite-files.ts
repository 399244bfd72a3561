import { existsSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';

/** The SQLite database in DATA_DIR (database.ts opens it for the service). */
export const SQLITE_FILE = 'youju.sqlite';

/** Files SQLite keeps beside the database: they belong to it and are never copied on their own. */
export const SQLITE_COMPANION_FILES = [
  SQLITE_FILE,
  `${SQLITE_FILE}-wal`,
  `${SQLITE_FILE}-shm`,
  `${SQLITE_FILE}-journal`,
];

export function sqlitePath(dataDir: string): string {
  return join(dataDir, SQLITE_FILE);
}

/**
 * A consistent copy of the live database in `target`, taken while the service keeps writing:
 * `VACUUM INTO` reads in one transaction, which in WAL mode sees the database as it was when it
 * began and does not hold up writers (https://sqlite.org/lang_vacuum.html#vacuuminto). Unlike the
 * online backup API it does not start over when another connection writes meanwhile.
 */
export function snapshotSqlite(dataDir: string, target: string): void {
  const source = sqlitePath(dataDir);
  if (!existsSync(source)) throw new Error(`${source} 不存在：DATA_DIR 中没有 Youju 的数据库`);
  const db = new SqliteDatabase(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 10000');
    db.prepare('vacuum into ?').run(target);
  } finally {
    db.close();
  }
}

/**
 * Opens an SQLite database read-only, for copying from: nothing is written to it (not even a
 * checkpoint), so the source of a migration stays as it was.
 */
export function openSqliteReadOnly(file: string): { db: Kysely<unknown>; close(): Promise<void> } {
  if (!existsSync(file)) throw new Error(`${file} 不存在：DATA_DIR 中没有 Youju 的数据库`);
  const sqlite = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  sqlite.pragma('busy_timeout = 10000');
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, close: () => db.destroy() };
}
