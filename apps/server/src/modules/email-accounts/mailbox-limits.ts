import type { Engine } from '../../db/database.js';
import { countAccountsOfOwner, countMailboxesOfOwner } from '../../db/repositories/mailbox-repo.js';
import { countPendingOrdersOfOwner } from '../../db/repositories/order-repo.js';
import type { Queryable } from '../../db/repositories/queryable.js';
import { findMailboxLimitOfAccount } from '../../db/repositories/system-account-repo.js';
import { ApiError } from '../../lib/api-error.js';

/**
 * A system account's mailbox limit (`max_mailboxes`, 0 = unlimited), the one rule behind every way
 * of creating mailboxes (the operator's createEmailAccount and CSV import, card redemption, order
 * delivery, createEmail's addresses) and behind the store's stock.
 */
export interface MailboxLimitCount {
  /** What uses places up: the owner's accounts only, or all its mailboxes (addresses too). */
  counting: 'accounts' | 'mailboxes';
  /**
   * Inside a transaction about to create a mailbox: lock the owner's row on PostgreSQL until it
   * ends, so that two creations cannot both take the last place (SQLite writes one at a time).
   */
  lock?: { engine: Engine };
  /** The store's stock: unpaid orders not yet expired at this time hold places too. */
  pendingOrdersAt?: number;
}

/** The owner's limit and the places left under it; null when it has none (or no such account). */
export async function mailboxPlacesLeft(
  db: Queryable,
  ownerId: number,
  count: MailboxLimitCount,
): Promise<{ limit: number; left: number } | null> {
  const owner = await findMailboxLimitOfAccount(db, ownerId, count.lock);
  if (!owner || owner.max_mailboxes <= 0) return null;
  const mailboxes = count.counting === 'accounts' ? countAccountsOfOwner : countMailboxesOfOwner;
  const [used, held] = await Promise.all([
    mailboxes(db, ownerId),
    count.pendingOrdersAt === undefined ? 0 : countPendingOrdersOfOwner(db, ownerId, count.pendingOrdersAt),
  ]);
  return { limit: owner.max_mailboxes, left: Math.max(0, owner.max_mailboxes - used - held) };
}

/** Refuses (403, with `refusal` of the limit) when no place is left under the owner's limit. */
export async function ensureMailboxPlaceLeft(
  db: Queryable,
  ownerId: number,
  count: MailboxLimitCount,
  refusal: (limit: number) => string,
): Promise<void> {
  const places = await mailboxPlacesLeft(db, ownerId, count);
  if (places && places.left === 0) throw ApiError.forbidden(refusal(places.limit));
}

/**
 * Mailboxes an owner can still sell: its limit less its accounts and its unpaid, unexpired orders
 * (null = unlimited). A paid order is delivered even past it (the buyer has paid); the stock only
 * stops new orders.
 */
export async function remainingStock(
  db: Queryable,
  ownerId: number,
  now = Date.now(),
): Promise<number | null> {
  const places = await mailboxPlacesLeft(db, ownerId, { counting: 'accounts', pendingOrdersAt: now });
  return places?.left ?? null;
}

/** Refuses an account the domain owner's limit has no place for; call inside the creating transaction. */
export async function ensureMailboxLimit(db: Queryable, engine: Engine, ownerId: number): Promise<void> {
  await ensureMailboxPlaceLeft(
    db,
    ownerId,
    { counting: 'accounts', lock: { engine } },
    (limit) => `该域名所属账号的邮箱数量已达上限（${limit} 个），请联系管理员调整`,
  );
}
