import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, testEngine } from '../../test/support/test-server.js';
import { type DatabaseHandle, openDatabase } from './database.js';
import { dependencyOrder, insertRows, listTables, readRows } from './table-copy.js';

/**
 * The catalogue read on the run's engine: tables in foreign-key order whatever their names, and a
 * table that refers to itself read in primary-key order, so that a parent updated after its child
 * was written (on PostgreSQL the update moves the row to the end of the heap) still comes first.
 */
describe('table copy', () => {
  let dataDir: string;
  let handle: DatabaseHandle;
  let dropDatabase: (() => Promise<void>) | null = null;
  let db: Kysely<unknown>;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'youju-table-copy-'));
    const postgres = testEngine === 'postgres' ? await createPostgresDatabase() : null;
    dropDatabase = postgres?.drop ?? null;
    handle = openDatabase({ databaseUrl: postgres?.url ?? null, dataDir });
    db = handle.db as unknown as Kysely<unknown>;
    const blob = testEngine === 'postgres' ? sql`bytea` : sql`blob`;
    // named so that the alphabet puts the referring table first
    await sql`create table z_folders (id integer primary key, parent_id integer references z_folders (id), name text)`.execute(
      db,
    );
    await sql`create table a_notes (id integer primary key, folder_id integer references z_folders (id), body ${blob})`.execute(
      db,
    );
  });
  afterAll(async () => {
    await handle.close();
    await dropDatabase?.();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('lists tables after those they refer to, with their columns', async () => {
    const tables = (await listTables(db, testEngine)).filter((table) =>
      ['a_notes', 'z_folders'].includes(table.name),
    );
    expect(tables.map((table) => table.name)).toEqual(['z_folders', 'a_notes']);
    expect(tables[0]).toMatchObject({
      columns: ['id', 'parent_id', 'name'],
      references: [],
      selfReferenceOrder: ['id'],
    });
    expect(tables[1]).toMatchObject({
      columns: ['id', 'folder_id', 'body'],
      references: ['z_folders'],
      selfReferenceOrder: null,
    });
  });

  it('refuses a cycle of foreign keys', () => {
    const shape = (name: string, references: string[]) => ({
      name,
      columns: [],
      references,
      selfReferenceOrder: null,
    });
    expect(() => dependencyOrder([shape('a', ['b']), shape('b', ['a'])])).toThrow(/环/);
  });

  it('reads a self-referencing table parents first, and inserts what it read', async () => {
    const tables = await listTables(db, testEngine);
    const folders = tables.find((table) => table.name === 'z_folders');
    const notes = tables.find((table) => table.name === 'a_notes');
    if (!folders || !notes) throw new Error('tables missing');
    await db.transaction().execute(async (trx) => {
      await insertRows(trx, testEngine, 'z_folders', folders.columns, [
        [1, null, 'root'],
        [2, 1, 'child'],
      ]);
      await insertRows(trx, testEngine, 'a_notes', notes.columns, [[1, 2, Buffer.from([0, 1, 255])]]);
    });
    await sql`update z_folders set name = 'renamed root' where id = 1`.execute(db);
    const rows = await db.transaction().execute(async (trx) => {
      const read: unknown[][] = [];
      for await (const batch of readRows(trx, testEngine, folders)) read.push(...batch);
      for await (const batch of readRows(trx, testEngine, notes)) read.push(...batch);
      return read;
    });
    expect(rows).toEqual([
      [1, null, 'renamed root'],
      [2, 1, 'child'],
      [1, 2, Buffer.from([0, 1, 255])],
    ]);
  });
});
