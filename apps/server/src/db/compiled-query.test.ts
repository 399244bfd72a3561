import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { runCompiled } from './compiled-query.js';

interface Tables {
  items: { id: number; name: string; size: number };
}

describe('runCompiled', () => {
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }) });
  afterAll(() => db.destroy());

  it('places each value where its stand-in was, for every run of one compiled query', async () => {
    await sql`create table items (id integer primary key, name text not null, size integer not null)`.execute(
      db,
    );
    for (const [name, size] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ] as const) {
      await runCompiled(db as never, 'test-insert', '', [name, size], ([n, s]) =>
        db.insertInto('items').values({ name: n, size: s }),
      );
    }
    // The same value twice, and an `in` list whose length is part of the shape.
    const find = async (names: string[], atLeast: number) =>
      (
        await runCompiled(
          db as never,
          'test-find',
          String(names.length),
          [atLeast, ...names, atLeast],
          ([min, ...rest]) =>
            db
              .selectFrom('items')
              .select(['name', 'size'])
              .where('name', 'in', rest.slice(0, -1))
              .where('size', '>=', min)
              .where('size', '>=', rest[rest.length - 1] as never)
              .orderBy('name'),
        )
      ).rows;
    expect(await find(['a', 'c'], 0)).toEqual([
      { name: 'a', size: 1 },
      { name: 'c', size: 3 },
    ]);
    expect(await find(['a', 'b', 'c'], 2)).toEqual([
      { name: 'b', size: 2 },
      { name: 'c', size: 3 },
    ]);
    expect(await find(['b'], 5)).toEqual([]);
  });

  it('refuses a query that does not place every value (one used while building)', async () => {
    await expect(
      runCompiled(db as never, 'test-unplaced', '', [1, 2], ([a]) =>
        db.selectFrom('items').select('name').where('size', '=', a),
      ),
    ).rejects.toThrow(/2 values, 1 placed/);
  });
});
