import type { Insertable } from 'kysely';
import type { ApiKeyRow, ApiKeyTable, SystemAccountRow } from '../schema.js';
import type { Queryable } from './queryable.js';

/** The account's newest key that is not revoked, or undefined. */
export async function findActiveApiKeyOfOwner(
  db: Queryable,
  ownerId: number,
): Promise<ApiKeyRow | undefined> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('revoked_at', 'is', null)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export async function insertApiKey(db: Queryable, values: Insertable<ApiKeyTable>): Promise<void> {
  await db.insertInto('api_keys').values(values).execute();
}

/** Revokes every key of the account that is not revoked yet. */
export async function revokeApiKeysOfOwner(db: Queryable, ownerId: number, now: number): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('owner_id', '=', ownerId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** A key that is not revoked, found by its hash, with the account that owns it. */
export interface ApiKeyWithOwner {
  id: number;
  last_used_at: number | null;
  account_id: number;
  username: string;
  role: SystemAccountRow['role'];
  enabled: number;
}

export async function findActiveApiKeyWithOwnerByHash(
  db: Queryable,
  keyHash: string,
): Promise<ApiKeyWithOwner | undefined> {
  return db
    .selectFrom('api_keys')
    .innerJoin('system_accounts', 'system_accounts.id', 'api_keys.owner_id')
    .select([
      'api_keys.id',
      'api_keys.last_used_at',
      'system_accounts.id as account_id',
      'system_accounts.username',
      'system_accounts.role',
      'system_accounts.enabled',
    ])
    .where('api_keys.key_hash', '=', keyHash)
    .where('api_keys.revoked_at', 'is', null)
    .executeTakeFirst();
}

export async function recordApiKeyUse(db: Queryable, id: number, usedAt: number): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: usedAt }).where('id', '=', id).execute();
}
