import { runCompiled } from '../compiled-query.js';
import type { SettingTable } from '../schema.js';
import type { Queryable } from './queryable.js';

/** Every stored setting: one row per key, its value JSON. */
export async function listSettings(db: Queryable): Promise<SettingTable[]> {
  // Read several times for every message (settings-service.ts reads them on each use): compiled once.
  const { rows } = await runCompiled(db, 'listSettings', '', [], () => db.selectFrom('settings').selectAll());
  return rows;
}

/** The stored JSON of one key, or undefined when it was never set. */
export async function findSettingValue(db: Queryable, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

/** Stores one key's JSON, replacing what it held. */
export async function saveSetting(db: Queryable, key: string, value: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ value }))
    .execute();
}

/**
 * Stores `value` under `key` unless the key holds something already, and returns what the key
 * holds afterwards: of processes racing to create a secret, all end up with the first one's.
 */
export async function saveSettingIfAbsent(db: Queryable, key: string, value: string): Promise<string> {
  await db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .execute();
  return (await findSettingValue(db, key)) ?? value;
}
