import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, copyFile, mkdir, mkdtemp, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Kysely } from 'kysely';
import { type Engine, openDatabase } from '../../db/database.js';
import { appliedMigrations, migrate, migrationNames } from '../../db/migrate.js';
import {
  openSqliteReadOnly,
  SQLITE_COMPANION_FILES,
  SQLITE_FILE,
  snapshotSqlite,
} from '../../db/sqlite-files.js';
import {
  countRows,
  dropTables,
  emptyTable,
  insertRows,
  isPostgresSchemaEmpty,
  listTables,
  readRows,
  resetSequences,
} from '../../db/table-copy.js';
import {
  BackupFormatError,
  hashFile,
  type Manifest,
  type ManifestEntry,
  type ManifestTable,
  newManifest,
  readArchive,
  verified,
  verifyArchive,
  writeArchive,
} from './backup-archive.js';

/** Where the database and DATA_DIR are, as the server reads them (config.ts). */
export interface BackupTarget {
  dataDir: string;
  databaseUrl: string | null;
  version: string;
}

/**
 * Folders of DATA_DIR that hold nothing to keep: spools of messages and uploads not yet
 * acknowledged (a message is acknowledged only once it is in the database), and the backups
 * themselves.
 */
const TRANSIENT_FOLDERS = new Set(['tmp', 'uploads', 'backups']);
const MAX_DEPTH = 8;
const RESTORE_BATCH_BYTES = 8 * 1024 * 1024;

/** An operator's mistake or a refused operation: the CLI prints the message and exits 1. */
export class BackupError extends Error {}

interface StagedFile {
  entry: ManifestEntry;
  file: string;
}

/** Copies the files of DATA_DIR worth keeping into `staging`, following symbolic links to files. */
async function stageDataFiles(dataDir: string, staging: string, skip: Set<string>): Promise<StagedFile[]> {
  const staged: StagedFile[] = [];
  const walk = async (directory: string, depth: number) => {
    let names: string[];
    try {
      names = (await readdir(directory)).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(directory, name);
      const relativePath = relative(dataDir, path).split(sep).join('/');
      if (skip.has(path) || [...skip].some((skipped) => path.startsWith(`${skipped}.partial-`))) continue;
      if (depth === 0 && (TRANSIENT_FOLDERS.has(name) || SQLITE_COMPANION_FILES.includes(name))) continue;
      if (name.startsWith('.youju-')) continue;
      let info: Awaited<ReturnType<typeof stat>>;
      try {
        info = await stat(path);
      } catch {
        continue; // a dangling link, or a file removed meanwhile
      }
      if (info.isDirectory()) {
        if (depth < MAX_DEPTH) await walk(path, depth + 1);
      } else if (info.isFile()) {
        const copy = join(staging, `file-${staged.length}`);
        await copyFile(path, copy);
        const hashed = await hashFile(copy);
        staged.push({ entry: { ...hashed, path: `files/${relativePath}` }, file: copy });
      }
    }
  };
  await walk(dataDir, 0);
  return staged;
}

function encodeValue(value: unknown): unknown {
  if (Buffer.isBuffer(value) || value instanceof Uint8Array)
    return { b64: Buffer.from(value).toString('base64') };
  if (typeof value === 'bigint') return value.toString();
  return value;
}

function decodeValue(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && 'b64' in value) {
    return Buffer.from(String((value as { b64: unknown }).b64), 'base64');
  }
  return value;
}

/** PostgreSQL: every table as JSON lines, read in one REPEATABLE READ transaction (one snapshot). */
async function stagePostgresTables(
  databaseUrl: string,
  staging: string,
): Promise<{ staged: StagedFile[]; tables: ManifestTable[]; migrations: string[] }> {
  const database = openDatabase({ databaseUrl, dataDir: staging, poolSize: 1 });
  const db = database.db as unknown as Kysely<unknown>;
  try {
    return await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async (trx) => {
        const migrations = await appliedMigrations(trx);
        const staged: StagedFile[] = [];
        const tables: ManifestTable[] = [];
        for (const table of await listTables(trx, 'postgres')) {
          const file = join(staging, `table-${tables.length}.jsonl`);
          let rows = 0;
          const lines = async function* () {
            for await (const batch of readRows(trx, 'postgres', table)) {
              rows += batch.length;
              yield `${batch.map((row) => JSON.stringify(row.map(encodeValue))).join('\n')}\n`;
            }
          };
          await pipeline(Readable.from(lines()), createWriteStream(file, { mode: 0o600 }));
          const hashed = await hashFile(file);
          staged.push({ entry: { ...hashed, path: `database/${table.name}.jsonl` }, file });
          tables.push({ name: table.name, columns: table.columns, rows });
        }
        return { staged, tables, migrations };
      });
  } finally {
    await database.close();
  }
}

/**
 * Writes a backup of the running installation to `out` (mode 0600): a consistent snapshot of the
 * database and the files of DATA_DIR (certificates, DKIM and TLS keys), as described in
 * backup-archive.ts. Work files go to a private folder beside `out` and are removed afterwards.
 */
export async function createBackup(target: BackupTarget, out: string): Promise<Manifest> {
  const output = resolve(out);
  await mkdir(dirname(output), { recursive: true, mode: 0o700 });
  const staging = await mkdtemp(join(dirname(output), '.youju-backup-'));
  await chmod(staging, 0o700);
  try {
    const engine: Engine = target.databaseUrl ? 'postgres' : 'sqlite';
    let database: StagedFile[];
    let tables: ManifestTable[] = [];
    let migrations: string[];
    if (target.databaseUrl) {
      ({ staged: database, tables, migrations } = await stagePostgresTables(target.databaseUrl, staging));
    } else {
      const snapshot = join(staging, SQLITE_FILE);
      snapshotSqlite(target.dataDir, snapshot);
      const copy = openSqliteReadOnly(snapshot);
      try {
        migrations = await appliedMigrations(copy.db);
      } finally {
        await copy.close();
      }
      database = [
        { entry: { ...(await hashFile(snapshot)), path: `database/${SQLITE_FILE}` }, file: snapshot },
      ];
    }
    // the files as they are right after the database snapshot
    const files = await stageDataFiles(target.dataDir, staging, new Set([staging, output]));
    const staged = [...database, ...files];
    const manifest = newManifest({
      youjuVersion: target.version,
      engine,
      migrations,
      tables,
      entries: staged.map((item) => item.entry),
    });
    const sources = new Map(staged.map((item) => [item.entry.path, item.file]));
    await writeArchive(output, manifest, (entry) => sources.get(entry.path) as string);
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function isEmptyDirectory(path: string): Promise<boolean> {
  try {
    return (await readdir(path)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

/** Writes a verified entry to `file` (mode 0600), creating its folders. */
async function extractTo(file: string, content: AsyncIterable<Buffer>): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await pipeline(Readable.from(content), createWriteStream(file, { flags: 'wx', mode: 0o600 }));
}

/**
 * Restores a backup into an empty DATA_DIR (and, for a PostgreSQL backup, an empty database).
 * The whole archive is first read and checked against its manifest; only then is anything
 * written, into a private folder beside DATA_DIR that is renamed to DATA_DIR at the end. A failure
 * on the way leaves DATA_DIR as it was and the database empty.
 */
export async function restoreBackup(target: BackupTarget, file: string): Promise<Manifest> {
  const archive = resolve(file);
  try {
    await stat(archive);
  } catch {
    throw new BackupError(`找不到备份文件 ${archive}`);
  }
  const dataDir = resolve(target.dataDir);
  if (!(await isEmptyDirectory(dataDir))) {
    throw new BackupError(`DATA_DIR（${dataDir}）不是空的：只能恢复到空的数据目录`);
  }
  const manifest = await verifyArchive(archive);
  const engine: Engine = target.databaseUrl ? 'postgres' : 'sqlite';
  if (manifest.engine !== engine) {
    throw new BackupError(
      manifest.engine === 'sqlite'
        ? '这是 SQLite 安装的备份：不设 DATABASE_URL 恢复，再用 youju migrate 迁移到 PostgreSQL'
        : '这是 PostgreSQL 安装的备份：设置 DATABASE_URL（一个空的数据库）再恢复',
    );
  }
  const known = new Set(migrationNames());
  const unknown = manifest.migrations.find((name) => !known.has(name));
  if (unknown) throw new BackupError(`备份来自更新的 Youju（迁移 ${unknown}），请用相同或更新的版本恢复`);

  await mkdir(dirname(dataDir), { recursive: true });
  const staging = join(dirname(dataDir), `.youju-restore-${randomBytes(6).toString('hex')}`);
  await mkdir(staging, { mode: 0o700 });
  const database = target.databaseUrl
    ? openDatabase({ databaseUrl: target.databaseUrl, dataDir: staging, poolSize: 2 })
    : null;
  let createdTables: string[] = [];
  try {
    if (database) {
      const db = database.db as unknown as Kysely<unknown>;
      if (!(await isPostgresSchemaEmpty(db)))
        throw new BackupError('目标 PostgreSQL 数据库不是空的：只能恢复到空的数据库');
      // the schema the backup was taken with; migrations it predates run after the rows are in
      await migrate(db, 'postgres', manifest.migrations);
      const tables = await listTables(db, 'postgres');
      createdTables = tables.map((table) => table.name);
      await db.transaction().execute(async (trx) => {
        for (const table of [...tables].reverse()) await emptyTable(trx, table.name);
        await readArchive(archive, async (entry, expected) => {
          if (entry.path.startsWith('files/')) {
            await extractTo(join(staging, entry.path.slice('files/'.length)), verified(entry, expected));
            return;
          }
          const table = manifest.tables.find(
            (candidate) => `database/${candidate.name}.jsonl` === entry.path,
          );
          if (!table) throw new BackupFormatError(`备份中的 ${entry.path} 不属于任何表`);
          const created = tables.find((candidate) => candidate.name === table.name);
          if (!created || created.columns.join() !== table.columns.join()) {
            throw new BackupFormatError(`备份中表 ${table.name} 的列与其迁移记录不符`);
          }
          let batch: unknown[][] = [];
          let batchBytes = 0;
          const lines = createInterface({
            input: Readable.from(verified(entry, expected)),
            crlfDelay: Infinity,
          });
          for await (const line of lines) {
            if (line === '') continue;
            batch.push((JSON.parse(line) as unknown[]).map(decodeValue));
            batchBytes += line.length;
            // a few MiB per statement: raw mail chunks are 256 KiB each
            if (batch.length >= 500 || batchBytes >= RESTORE_BATCH_BYTES) {
              await insertRows(trx, 'postgres', table.name, table.columns, batch);
              batch = [];
              batchBytes = 0;
            }
          }
          if (batch.length > 0) await insertRows(trx, 'postgres', table.name, table.columns, batch);
        });
        await resetSequences(trx);
        for (const table of manifest.tables) {
          const rows = await countRows(trx, table.name);
          if (rows !== table.rows)
            throw new BackupError(`表 ${table.name} 恢复了 ${rows} 行，备份中有 ${table.rows} 行`);
        }
      });
      await migrate(db, 'postgres');
      createdTables = (await listTables(db, 'postgres')).map((table) => table.name);
    } else {
      await readArchive(archive, async (entry, expected) => {
        const path = entry.path.startsWith('files/')
          ? entry.path.slice('files/'.length)
          : entry.path === `database/${SQLITE_FILE}`
            ? SQLITE_FILE
            : null;
        if (path === null) throw new BackupFormatError(`备份中的 ${entry.path} 不属于 SQLite 安装`);
        await extractTo(join(staging, path), verified(entry, expected));
      });
    }
    if (!(await isEmptyDirectory(dataDir))) {
      throw new BackupError(`DATA_DIR（${dataDir}）在恢复期间被写入，已放弃`);
    }
    await rmdir(dataDir).catch(() => undefined);
    await rename(staging, dataDir);
    return manifest;
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (database && createdTables.length > 0) {
      await dropTables(database.db as unknown as Kysely<unknown>, createdTables).catch(() => undefined);
    }
    throw error;
  } finally {
    await database?.close();
  }
}

/** A short line about a manifest, for the CLI. */
export function describeManifest(manifest: Manifest, file: string): string {
  const bytes = manifest.entries.reduce((sum, entry) => sum + entry.size, 0);
  return `${basename(file)}：${manifest.engine}，${manifest.entries.length} 项，${bytes} 字节，Youju ${manifest.youjuVersion}`;
}
