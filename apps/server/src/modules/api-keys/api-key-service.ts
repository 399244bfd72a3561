import { randomBytes } from 'node:crypto';
import type { ApiKeyView } from '@youju/contract';
import type { Kysely } from 'kysely';
import {
  findActiveApiKeyOfOwner,
  findActiveApiKeyWithOwnerByHash,
  insertApiKey,
  recordApiKeyUse,
  revokeApiKeysOfOwner,
} from '../../db/repositories/api-key-repo.js';
import type { Queryable } from '../../db/repositories/queryable.js';
import type { Database } from '../../db/schema.js';
import { toIso } from '../../lib/time.js';
import { hashToken } from '../../lib/tokens.js';
import type { AuthContext } from '../sessions/index.js';

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
 * API keys of system accounts for the open API (/api/open, sent as `X-API-Key`). One active key
 * per account; only its SHA-256 is stored, so the full key is shown once, when it is made.
 * Refreshing revokes the old key in the same transaction: it fails from the next request on.
 */
export function createApiKeyService(db: Kysely<Database>) {
  async function create(trx: Queryable, ownerId: number, now: number): Promise<ApiKeyView> {
    const key = newKey();
    await insertApiKey(trx, {
      owner_id: ownerId,
      key_hash: hashToken(key),
      key_hint: key.slice(-HINT_LENGTH),
      created_at: now,
      last_used_at: null,
      revoked_at: null,
    });
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
        const active = await findActiveApiKeyOfOwner(trx, ownerId);
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
        await revokeApiKeysOfOwner(trx, ownerId, now);
        return create(trx, ownerId, now);
      });
    },

    /** The owner of a valid key, as a caller of the open API; null for anything else. */
    async authenticate(key: string): Promise<(AuthContext & { keyId: number }) | null> {
      if (!key.startsWith(PREFIX) || key.length > 100) return null;
      const row = await findActiveApiKeyWithOwnerByHash(db, hashToken(key));
      if (row?.enabled !== 1) return null;
      const now = Date.now();
      if (row.last_used_at === null || now - row.last_used_at > TOUCH_INTERVAL) {
        await recordApiKeyUse(db, row.id, now);
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
