import type { Selectable } from 'kysely';
import type { IpBlacklistTable } from '../schema.js';
import type { Queryable } from './queryable.js';

type BlacklistRow = Selectable<IpBlacklistTable>;
export type BlacklistEntry = Pick<BlacklistRow, 'ip' | 'reason' | 'created_at' | 'expires_at' | 'source'>;

/** Every entry as the listeners match against it (expired ones included). */
export async function listBlacklistRanges(
  db: Queryable,
): Promise<Pick<BlacklistRow, 'ip' | 'expires_at' | 'source'>[]> {
  return db.selectFrom('ip_blacklist').select(['ip', 'expires_at', 'source']).execute();
}

/** Every entry, newest first. */
export async function listBlacklistEntries(db: Queryable): Promise<BlacklistEntry[]> {
  return db
    .selectFrom('ip_blacklist')
    .select(['ip', 'reason', 'created_at', 'expires_at', 'source'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Adds the entry, or replaces what the entry with the same `ip` held. */
export async function saveBlacklistEntry(db: Queryable, entry: BlacklistEntry): Promise<void> {
  const { ip, ...rest } = entry;
  await db
    .insertInto('ip_blacklist')
    .values(entry)
    .onConflict((conflict) => conflict.column('ip').doUpdateSet(rest))
    .execute();
}

/** When the entry for exactly `ip` expires (null: never), or undefined when there is none. */
export async function findBlacklistEntryExpiry(
  db: Queryable,
  ip: string,
): Promise<Pick<BlacklistRow, 'expires_at'> | undefined> {
  return db.selectFrom('ip_blacklist').select(['expires_at']).where('ip', '=', ip).executeTakeFirst();
}

/** Deletes the entry for exactly `ip`; returns whether there was one. */
export async function deleteBlacklistEntry(db: Queryable, ip: string): Promise<boolean> {
  const result = await db.deleteFrom('ip_blacklist').where('ip', '=', ip).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Deletes the entries that expired before `before`; returns how many. */
export async function deleteBlacklistEntriesExpiredBefore(db: Queryable, before: number): Promise<number> {
  const result = await db
    .deleteFrom('ip_blacklist')
    .where('expires_at', 'is not', null)
    .where('expires_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
