import type { Kysely } from 'kysely';
import { openDatabase } from '../../db/database.js';
import { appliedMigrations, migrate, migrationNames } from '../../db/migrate.js';
import { openSqliteReadOnly, sqlitePath } from '../../db/sqlite-files.js';
import {
  countRows,
  dropTables,
  emptyTable,
  insertRows,
  isPostgresSchemaEmpty,
  listTables,
  readRows,
  resetSequences,
  type TableShape,
} from '../../db/table-copy.js';
import { BackupError } from './backup-service.js';
import { TableChecksum } from './table-checksum.js';

export interface MovedTable {
  name: string;
  rows: number;
  checksum: string;
}

export interface MoveResult {
  tables: MovedTable[];
  /** SQLite tables with no counterpart on PostgreSQL (its own search index), not copied */
  skipped: string[];
}

function sameColumns(a: string[], b: string[]): boolean {
  return a.length === b.length && [...a].sort().join('\0') === [...b].sort().join('\0');
}

/**
 * Copies a whole SQLite installation (`DATA_DIR/youju.sqlite`) into an empty PostgreSQL database:
 * Youju's migrations first create the tables with PostgreSQL's own column types, then every table
 * the two share is copied in batches in one transaction (read from one SQLite snapshot), the
 * identity sequences are set past the copied ids, and each table's row count and checksum
 * (table-checksum.ts) are compared with the source's. The source is opened read-only. On any
 * failure the tables created on PostgreSQL are dropped again, leaving it empty.
 *
 * Files in DATA_DIR (certificates, keys) are not copied: they stay where they are, and the
 * processes that share the database read them from their own DATA_DIR.
 */
export async function moveToPostgres(
  dataDir: string,
  targetUrl: string,
  progress: (line: string) => void = () => undefined,
): Promise<MoveResult> {
  const source = openSqliteReadOnly(sqlitePath(dataDir));
  const target = openDatabase({ databaseUrl: targetUrl, dataDir, poolSize: 2 });
  const targetDb = target.db as unknown as Kysely<unknown>;
  let created: string[] = [];
  try {
    const applied = await appliedMigrations(source.db);
    const expected = migrationNames();
    if (applied.join() !== expected.join()) {
      throw new BackupError(
        applied.some((name) => !expected.includes(name))
          ? '源数据库来自更新的 Youju：请用相同版本迁移'
          : '源数据库的结构比此版本旧：先不带 DATABASE_URL 用此版本启动一次 Youju 完成升级，再迁移',
      );
    }
    if (!(await isPostgresSchemaEmpty(targetDb))) {
      throw new BackupError('目标 PostgreSQL 数据库不是空的：只能迁移到空的数据库');
    }
    await migrate(targetDb, 'postgres');
    const targetTables = await listTables(targetDb, 'postgres');
    created = targetTables.map((table) => table.name);
    const sourceTables = await listTables(source.db, 'sqlite');
    for (const table of targetTables) {
      const from = sourceTables.find((candidate) => candidate.name === table.name);
      if (!from) throw new BackupError(`源数据库没有表 ${table.name}`);
      if (!sameColumns(from.columns, table.columns)) throw new BackupError(`表 ${table.name} 的列在两边不同`);
    }
    const skipped = sourceTables.map((table) => table.name).filter((name) => !created.includes(name));

    const copied = await copyAll(source.db, targetDb, targetTables, progress);
    progress('校验目标数据库……');
    for (const table of targetTables) {
      const checksum = new TableChecksum();
      await targetDb.transaction().execute(async (trx) => {
        for await (const batch of readRows(trx, 'postgres', table)) {
          for (const row of batch) checksum.add(row);
        }
      });
      const expectedTable = copied.find((item) => item.name === table.name) as MovedTable;
      if (
        checksum.rows !== expectedTable.rows ||
        (await countRows(targetDb, table.name)) !== expectedTable.rows
      ) {
        throw new BackupError(`表 ${table.name} 的行数不符：源 ${expectedTable.rows}，目标 ${checksum.rows}`);
      }
      if (checksum.digest !== expectedTable.checksum) throw new BackupError(`表 ${table.name} 的校验和不符`);
    }
    return { tables: copied, skipped };
  } catch (error) {
    if (created.length > 0) await dropTables(targetDb, created).catch(() => undefined);
    throw error;
  } finally {
    await source.close();
    await target.close();
  }
}

async function copyAll(
  source: Kysely<unknown>,
  target: Kysely<unknown>,
  tables: TableShape[],
  progress: (line: string) => void,
): Promise<MovedTable[]> {
  // One read transaction on SQLite: every table as of the same instant.
  return source.transaction().execute((reader) =>
    target.transaction().execute(async (writer) => {
      // rows the migrations wrote (Kysely's own bookkeeping) make way for the source's
      for (const table of [...tables].reverse()) await emptyTable(writer, table.name);
      const copied: MovedTable[] = [];
      for (const table of tables) {
        const checksum = new TableChecksum();
        for await (const batch of readRows(reader, 'sqlite', table)) {
          for (const row of batch) checksum.add(row);
          await insertRows(writer, 'postgres', table.name, table.columns, batch);
        }
        copied.push({ name: table.name, rows: checksum.rows, checksum: checksum.digest });
        progress(`${table.name}：${checksum.rows} 行`);
      }
      await resetSequences(writer);
      return copied;
    }),
  );
}
