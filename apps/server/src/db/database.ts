import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, type SqliteDatabase as KyselySqliteDatabase, PostgresDialect, SqliteDialect } from 'kysely';
import type pg from 'pg';
import type { Database } from './schema.js';
import { createWalSync } from './wal-sync.js';

/**
 * pg, loaded when PostgreSQL is configured: a SQLite server spares the 3 MiB of heap it takes, in
 * each of its threads (the main one and the store worker).
 */
const loadPg = (): typeof pg => createRequire(import.meta.url)('pg');

export type Engine = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  engine: Engine;
  /** PostgreSQL pool, for LISTEN/NOTIFY; null on SQLite */
  pool: pg.Pool | null;
  /**
   * SQLite opened with `walSync: 'caller'`: syncs the WAL, making every commit so far durable
   * (wal-sync.ts); the caller must await it before acknowledging. Null otherwise: commits are
   * durable when they return.
   */
  syncWal: (() => Promise<void>) | null;
  close(): Promise<void>;
}

/** int8 (count(*), bigint columns) arrives as a string from pg; our values fit in a double. */
const INT8_OID = 20;
const pgTypes = {
  getTypeParser(oid: number, format?: string) {
    if (oid === INT8_OID) return (value: string) => Number(value);
    // biome-ignore lint/suspicious/noExplicitAny: pg's own overloads do not accept the union
    return loadPg().types.getTypeParser(oid, format as any);
  },
};

/** Compiled statements kept per connection; the least recently used one goes first. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew, and better-sqlite3 compiles SQL on each prepare (about 50 µs,
 * a tenth of the work of storing a small message). Statements are reused by their SQL text; one
 * still running an iteration is never handed out twice.
 */
function cachedStatements(sqlite: SqliteDatabase.Database): KyselySqliteDatabase {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      // Kysely begins every SQLite transaction with a plain (deferred) "begin". The store worker
      // (src/smtp/store-worker.ts) writes through a second connection, and a deferred transaction
      // that has read cannot wait for the other writer: it fails at its first write with
      // SQLITE_BUSY. Taking the write lock at the start makes it wait (busy_timeout) instead.
      const source = text === 'begin' ? 'begin immediate' : text;
      const cached = cache.get(source);
      if (cached && !cached.busy) {
        cache.delete(source);
        cache.set(source, cached);
        return cached;
      }
      const statement = sqlite.prepare(source);
      if (!cached) {
        cache.set(source, statement);
        if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      }
      return statement;
    },
  };
}

/**
 * A failure to open a connection, whatever PostgreSQL or the network said (a refused or reset
 * socket, `cannot_connect_now` during a restart, a database not accepting connections), carries
 * SQLSTATE 08001 (sqlclient_unable_to_establish_sqlconnection), so that callers can tell "the
 * database is away, try again" from a failed statement (`isDatabaseUnavailable` in lib/api-error.ts).
 */
function unableToConnect(cause: unknown): Error {
  const error = new Error(`database connection failed: ${(cause as Error)?.message ?? String(cause)}`, {
    cause,
  });
  return Object.assign(error, { code: '08001' });
}

export function openDatabase(options: {
  databaseUrl: string | null;
  dataDir: string;
  /** PostgreSQL connections at most (10) */
  poolSize?: number;
  /** told when PostgreSQL ends an idle pooled connection (the pool opens a new one when needed) */
  log?: { warn(message: string): void };
  /**
   * SQLite: 'commit' (the default) syncs inside every commit (synchronous = FULL); 'caller' leaves
   * the sync of the WAL to the caller through `syncWal` (synchronous = NORMAL, see wal-sync.ts),
   * for a writer that acknowledges only after awaiting it (the store worker's group commit).
   */
  walSync?: 'commit' | 'caller';
  /**
   * SQLite: the most this connection's page cache may hold, in KiB. better-sqlite3 builds SQLite
   * with 16 MiB (`SQLITE_DEFAULT_CACHE_SIZE=-16000`, against SQLite's own 2 MiB); that default
   * when absent.
   */
  pageCacheKiB?: number;
}): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new (loadPg().Pool)({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      types: pgTypes,
    });
    // A connection that PostgreSQL ends (a restart, a failover, a dropped database) emits 'error':
    // on the pool while it is idle, on its client while it is checked out (a query running, a
    // transaction open). Unheard, either would end the process. The query in flight fails with the
    // same error, which reaches its caller; the pool drops the client and opens a new one for the
    // next query.
    pool.on('error', (error) => options.log?.warn(`database: idle connection lost (${error.message})`));
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({
        pool: {
          connect: () =>
            pool.connect().catch((error: unknown) => {
              throw unableToConnect(error);
            }),
          end: () => pool.end(),
        },
      }),
    });
    return { db, engine: 'postgres', pool, syncWal: null, close: () => db.destroy() };
  }
  mkdirSync(options.dataDir, { recursive: true });
  const file = join(options.dataDir, 'youju.sqlite');
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  const callerSyncs = options.walSync === 'caller';
  // FULL: a commit is on disk before it returns, so "250 OK" survives power loss, not just a crash.
  // NORMAL only for a connection whose caller syncs the WAL itself before acknowledging.
  sqlite.pragma(callerSyncs ? 'synchronous = NORMAL' : 'synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // The store worker's connection (the caller syncs): its group commit gives each message a
  // savepoint, and a savepoint keeps the pages it changes in a statement journal, a temporary file
  // once it passes 64 KiB. Kept in memory instead (it is a few hundred KiB at most, gone at the
  // commit), the file's writes go: 57 → 21 write calls and 130 → 55 KiB written per 10 KiB
  // message. Only this connection: on the others, temporary storage is also where large sorts go.
  if (callerSyncs) sqlite.pragma('temp_store = MEMORY');
  if (options.pageCacheKiB !== undefined) {
    // A negative cache_size counts KiB, a positive one pages (https://sqlite.org/pragma.html#pragma_cache_size).
    sqlite.pragma(`cache_size = ${-Math.max(1, Math.floor(options.pageCacheKiB))}`);
  }
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachedStatements(sqlite) }) });
  const wal = callerSyncs ? createWalSync(`${file}-wal`) : null;
  return {
    db,
    engine: 'sqlite',
    pool: null,
    syncWal: wal ? () => wal.sync() : null,
    close: async () => {
      await wal?.close();
      await db.destroy();
    },
  };
}
