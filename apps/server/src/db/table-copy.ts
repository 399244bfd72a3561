import { type Kysely, sql } from 'kysely';
import type { Engine } from './database.js';

/**
 * SQL about every table at once, for backups, restores and the move from SQLite to PostgreSQL:
 * which tables and columns the database holds (read from its own catalogue, never from a list in
 * the code, so tables added by later migrations come along by themselves), an order in which
 * rows can be inserted without breaking a foreign key, rows read in batches and written in
 * batches, and PostgreSQL's identity sequences set past the copied ids.
 */

// biome-ignore lint/suspicious/noExplicitAny: the tables are discovered at run time
type AnyDatabase = Kysely<any>;

export interface TableShape {
  name: string;
  /** columns that hold data (generated columns left out), in the table's order */
  columns: string[];
  /** tables this one's foreign keys point at (itself left out) */
  references: string[];
  /**
   * set when a foreign key points at the table itself (a folder's parent): its rows are then read
   * in the order of this primary key, so that a referenced row is inserted before those after it
   */
  selfReferenceOrder: string[] | null;
}

/** Batches stay near this many bytes, so a table of 256 KiB chunks never sits in memory whole. */
const BATCH_BYTES = 8 * 1024 * 1024;
const MAX_BATCH_ROWS = 1000;
/** parameters per statement, within what both engines take */
const MAX_PARAMETERS = 30_000;

/**
 * The tables of the database, in an order where every table comes after the tables it refers to.
 * On SQLite, virtual tables (the FTS5 search index) and their shadow tables are left out: they are
 * indexes that the engine rebuilds, not data.
 */
export async function listTables(db: AnyDatabase, engine: Engine): Promise<TableShape[]> {
  const tables = engine === 'sqlite' ? await listSqliteTables(db) : await listPostgresTables(db);
  return dependencyOrder(tables);
}

async function listSqliteTables(db: AnyDatabase): Promise<TableShape[]> {
  const { rows } = await sql<{ name: string; sql: string | null }>`
    select name, sql from sqlite_master where type = 'table' order by name`.execute(db);
  const virtual = rows
    .filter((row) => /^\s*create\s+virtual\s+table/i.test(row.sql ?? ''))
    .map((row) => row.name);
  const shapes: TableShape[] = [];
  for (const { name } of rows) {
    if (name.startsWith('sqlite_')) continue;
    if (virtual.some((table) => name === table || name.startsWith(`${table}_`))) continue;
    // table_info leaves hidden and generated columns out already
    const columns = await sql<{ name: string; pk: number }>`
      select name, pk from pragma_table_info(${name}) order by cid`.execute(db);
    const references = await sql<{
      table: string;
    }>`select distinct "table" from pragma_foreign_key_list(${name})`.execute(db);
    const primaryKey = columns.rows
      .filter((row) => row.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((row) => row.name);
    shapes.push({
      name,
      columns: columns.rows.map((row) => row.name),
      references: references.rows.map((row) => row.table).filter((table) => table !== name),
      selfReferenceOrder: references.rows.some((row) => row.table === name) ? primaryKey : null,
    });
  }
  return shapes;
}

async function listPostgresTables(db: AnyDatabase): Promise<TableShape[]> {
  const tables = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind in ('r', 'p') order by c.relname`.execute(db);
  const columns = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns
    where table_schema = current_schema() and is_generated = 'NEVER'
    order by table_name, ordinal_position`.execute(db);
  const references = await sql<{ source: string; target: string }>`
    select distinct source.relname as source, target.relname as target
    from pg_constraint con
    join pg_class source on source.oid = con.conrelid
    join pg_class target on target.oid = con.confrelid
    join pg_namespace n on n.oid = source.relnamespace
    where con.contype = 'f' and n.nspname = current_schema()`.execute(db);
  const primaryKeys = await sql<{ table_name: string; column_name: string }>`
    select source.relname as table_name, a.attname as column_name
    from pg_index i
    join pg_class source on source.oid = i.indrelid
    join pg_namespace n on n.oid = source.relnamespace
    join lateral unnest(i.indkey) with ordinality as k(attnum, position) on true
    join pg_attribute a on a.attrelid = source.oid and a.attnum = k.attnum
    where i.indisprimary and n.nspname = current_schema()
    order by source.relname, k.position`.execute(db);
  return tables.rows.map(({ name }) => ({
    name,
    columns: columns.rows.filter((row) => row.table_name === name).map((row) => row.column_name),
    references: references.rows
      .filter((row) => row.source === name && row.target !== name)
      .map((row) => row.target),
    selfReferenceOrder: references.rows.some((row) => row.source === name && row.target === name)
      ? primaryKeys.rows.filter((row) => row.table_name === name).map((row) => row.column_name)
      : null,
  }));
}

/** Tables sorted so that each comes after those it refers to (a cycle is an error). */
export function dependencyOrder(tables: TableShape[]): TableShape[] {
  const byName = new Map(tables.map((table) => [table.name, table]));
  const ordered: TableShape[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (table: TableShape) => {
    const seen = state.get(table.name);
    if (seen === 'done') return;
    if (seen === 'visiting') throw new Error(`外键形成环，无法确定表的复制顺序：${table.name}`);
    state.set(table.name, 'visiting');
    for (const reference of table.references) {
      const target = byName.get(reference);
      if (target) visit(target);
    }
    state.set(table.name, 'done');
    ordered.push(table);
  };
  for (const table of tables) visit(table);
  return ordered;
}

function rowBytes(row: unknown[]): number {
  let bytes = 16;
  for (const value of row) {
    if (Buffer.isBuffer(value) || value instanceof Uint8Array) bytes += value.byteLength;
    else if (typeof value === 'string') bytes += value.length * 2;
    else bytes += 8;
  }
  return bytes;
}

/**
 * Every row of `table` as arrays of values in the order of its columns, in batches of a few MiB.
 * On PostgreSQL `db` must be a transaction (a cursor lives in one); on SQLite the caller's
 * transaction, if any, gives one consistent view of all tables.
 */
export async function* readRows(
  db: AnyDatabase,
  engine: Engine,
  { name: table, columns, selfReferenceOrder }: TableShape,
): AsyncGenerator<unknown[][]> {
  const columnList = sql.join(columns.map((column) => sql.id(column)));
  const orderBy = selfReferenceOrder ?? [];
  if (engine === 'sqlite') {
    let batch: unknown[][] = [];
    let bytes = 0;
    const select = db.selectFrom(table).select(columns);
    // better-sqlite3 steps through the rows one at a time (Kysely streams only built selects)
    for await (const record of (orderBy.length > 0 ? select.orderBy(orderBy) : select).stream()) {
      const row = columns.map((column) => (record as Record<string, unknown>)[column]);
      batch.push(row);
      bytes += rowBytes(row);
      if (bytes >= BATCH_BYTES || batch.length >= MAX_BATCH_ROWS) {
        yield batch;
        batch = [];
        bytes = 0;
      }
    }
    if (batch.length > 0) yield batch;
    return;
  }
  const order =
    orderBy.length > 0 ? sql` order by ${sql.join(orderBy.map((column) => sql.id(column)))}` : sql``;
  await sql`declare youju_table_rows no scroll cursor for select ${columnList} from ${sql.table(table)}${order}`.execute(
    db,
  );
  try {
    let fetchCount = 16;
    for (;;) {
      const { rows } = await sql<
        Record<string, unknown>
      >`fetch forward ${sql.lit(fetchCount)} from youju_table_rows`.execute(db);
      if (rows.length === 0) break;
      const batch = rows.map((record) => columns.map((column) => record[column]));
      yield batch;
      const average = batch.reduce((sum, row) => sum + rowBytes(row), 0) / batch.length;
      fetchCount = Math.max(1, Math.min(MAX_BATCH_ROWS, Math.floor(BATCH_BYTES / average)));
    }
  } finally {
    await sql`close youju_table_rows`.execute(db);
  }
}

/** The number of rows of `table`. */
export async function countRows(db: AnyDatabase, table: string): Promise<number> {
  const { rows } = await sql<{
    count: number | string;
  }>`select count(*) as count from ${sql.table(table)}`.execute(db);
  return Number(rows[0]?.count ?? 0);
}

/** Inserts rows (values in the order of `columns`), ids included. */
export async function insertRows(
  db: AnyDatabase,
  engine: Engine,
  table: string,
  columns: string[],
  rows: unknown[][],
): Promise<void> {
  // SQLite takes at most 32766 parameters, PostgreSQL 65535
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / Math.max(1, columns.length)));
  // OVERRIDING SYSTEM VALUE: the copied ids win over PostgreSQL's identity sequences
  const overriding = engine === 'postgres' ? sql` overriding system value` : sql``;
  const columnList = sql.join(columns.map((column) => sql.id(column)));
  for (let from = 0; from < rows.length; from += perStatement) {
    const values = rows.slice(from, from + perStatement).map((row) => sql`(${sql.join(row)})`);
    await sql`insert into ${sql.table(table)} (${columnList})${overriding} values ${sql.join(values)}`.execute(
      db,
    );
  }
}

/** Deletes every row of a PostgreSQL table (those the migrations put there, before a copy). */
export async function emptyTable(db: AnyDatabase, table: string): Promise<void> {
  await sql`delete from ${sql.table(table)}`.execute(db);
}

/** True when the current schema of a PostgreSQL database holds no table, view or sequence. */
export async function isPostgresSchemaEmpty(db: AnyDatabase): Promise<boolean> {
  const { rows } = await sql<{ count: number | string }>`
    select count(*) as count from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')`.execute(db);
  return Number(rows[0]?.count ?? 0) === 0;
}

/** Drops tables (with what depends on them), to leave an empty database after a failed copy. */
export async function dropTables(db: AnyDatabase, tables: string[]): Promise<void> {
  for (const table of [...tables].reverse()) {
    await sql`drop table if exists ${sql.table(table)} cascade`.execute(db);
  }
}

/**
 * Sets every identity and serial sequence of the PostgreSQL database past the largest id its
 * column holds, so that the next row the service inserts gets a new id.
 */
export async function resetSequences(db: AnyDatabase): Promise<void> {
  const { rows } = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns
    where table_schema = current_schema() and (is_identity = 'YES' or column_default like 'nextval(%')`.execute(
    db,
  );
  for (const { table_name: table, column_name: column } of rows) {
    await sql`select setval(pg_get_serial_sequence(quote_ident(${table}), ${column}),
      coalesce((select max(${sql.id(column)}) from ${sql.table(table)}), 0) + 1, false)`.execute(db);
  }
}
