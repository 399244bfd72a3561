import { randomBytes } from 'node:crypto';
import type { ApiKeyView } from '@youju/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toIso } from '../../lib/time.js';
import { hashToken } from '../../lib/tokens.js';
import type { AuthContext } from '../sessions/session-service.js';

const PREFIX = 'yj_';
const HINT_LENGTH = 4;
/** `last_used_at` is written at most this often per key. */
const TOUCH_INTERVAL = 60_000;

function newKey(): string {
  return `${PREFIX}${randomBytes(24).toString('base64url')}`;
}

function masked(hint: string): string {
  return `${PREFIX}${'*'.repeat(12)}${hint}`;
}

/**
 * API keys of system accounts for the open API (API.md "Open API"). One active key per account;
 * only its SHA-256 is stored, so the full key is shown once, when it is made. Refreshing revokes the
 * old key in the same transaction: it fails from the next request on.
 */
export function createApiKeyService(db: Kysely<Database>) {
  async function create(trx: Kysely<Database>, ownerId: number, now: number): Promise<ApiKeyView> {
    const key = newKey();
    await trx
      .insertInto('api_keys')
      .values({
        owner_id: ownerId,
        key_hash: hashToken(key),
        key_hint: key.slice(-HINT_LENGTH),
        created_at: now,
        last_used_at: null,
        revoked_at: null,
      })
      .execute();
    return {
      key,
      masked: false,
      maskedKey: masked(key.slice(-HINT_LENGTH)),
      createdAt: toIso(now),
      lastUsedAt: null,
    };
  }

  return {
    /** The caller's key: created (and shown in full) when there is none, masked otherwise. */
    async get(ownerId: number): Promise<ApiKeyView> {
      return db.transaction().execute(async (trx) => {
        const active = await trx
          .selectFrom('api_keys')
          .selectAll()
          .where('owner_id', '=', ownerId)
          .where('revoked_at', 'is', null)
          .orderBy('id', 'desc')
          .executeTakeFirst();
        if (!active) return create(trx, ownerId, Date.now());
        const maskedKey = masked(active.key_hint);
        return {
          key: maskedKey,
          masked: true,
          maskedKey,
          createdAt: toIso(active.created_at),
          lastUsedAt: toIso(active.last_used_at),
        };
      });
    },

    /** A new key; every older key of the account stops working at once. */
    async refresh(ownerId: number): Promise<ApiKeyView> {
      return db.transaction().execute(async (trx) => {
        const now = Date.now();
        await trx
          .updateTable('api_keys')
          .set({ revoked_at: now })
          .where('owner_id', '=', ownerId)
          .where('revoked_at', 'is', null)
          .execute();
        return create(trx, ownerId, now);
      });
    },

    /** The owner of a valid key, as a caller of the open API; null for anything else. */
    async authenticate(key: string): Promise<(AuthContext & { keyId: number }) | null> {
      if (!key.startsWith(PREFIX) || key.length > 100) return null;
      const row = await db
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
        .where('api_keys.key_hash', '=', hashToken(key))
        .where('api_keys.revoked_at', 'is', null)
        .executeTakeFirst();
      if (row?.enabled !== 1) return null;
      const now = Date.now();
      if (row.last_used_at === null || now - row.last_used_at > TOUCH_INTERVAL) {
        await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', row.id).execute();
      }
      return {
        keyId: row.id,
        // An API call has no session; 0 never matches a session id.
        sessionId: 0,
        role: row.role,
        accountId: row.account_id,
        mailboxId: null,
        name: row.username,
      };
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
