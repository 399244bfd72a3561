import type { EmailAccount } from '@youju/contract';
import type { Kysely, Transaction } from 'kysely';
import type { Engine } from '../../db/database.js';
import type { Database, MailboxRow } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import { toIso } from '../../lib/time.js';
import { deleteOrphanRaw } from '../mail/raw-store.js';

/** A query runner: the database itself or an open transaction. */
export type Executor = Kysely<Database> | Transaction<Database>;

/**
 * The pieces every way of creating a mailbox account shares (the operator's createEmailAccount and
 * CSV import, card redemption, order delivery), so that they agree on what "taken" means and on
 * the owner's mailbox limit.
 */

export function accountView(row: MailboxRow): EmailAccount {
  return {
    id: row.id,
    email: row.address,
    domainId: row.domain_id,
    enabled: row.enabled === 1,
    quotaBytes: row.quota_bytes,
    usedBytes: row.used_bytes,
    expiresAt: toIso(row.expires_at),
    source: row.source,
    note: row.note,
    createdAt: toIso(row.created_at),
    temporary: row.password_hash === null,
  };
}

/**
 * Why `address` cannot be given out, in Chinese, or null when it is free: an existing mailbox or
 * address of any kind, or a store order that still holds it (unpaid and not yet expired, or paid
 * and awaiting delivery).
 */
export async function addressTakenReason(
  db: Executor,
  address: string,
  now = Date.now(),
): Promise<string | null> {
  const mailbox = await db
    .selectFrom('mailboxes')
    .select('id')
    .where('address', '=', address)
    .executeTakeFirst();
  if (mailbox) return `邮箱 ${address} 已被占用`;
  const order = await db
    .selectFrom('orders')
    .select('id')
    .where('address', '=', address)
    .where((eb) =>
      eb.or([eb('status', '=', 'paid'), eb.and([eb('status', '=', 'pending'), eb('expires_at', '>', now)])]),
    )
    .executeTakeFirst();
  if (order) return `邮箱 ${address} 已被其他订单预留，请换一个前缀`;
  return null;
}

/**
 * Mailboxes an owner can still sell: its `maxMailboxes` (0 = unlimited, shown as null) less its
 * accounts and its unpaid, unexpired orders. A paid order is delivered even past it (the buyer has
 * paid); the stock only stops new orders.
 */
export async function remainingStock(
  db: Executor,
  ownerId: number,
  now = Date.now(),
): Promise<number | null> {
  const owner = await db
    .selectFrom('system_accounts')
    .select('max_mailboxes')
    .where('id', '=', ownerId)
    .executeTakeFirst();
  if (!owner || owner.max_mailboxes <= 0) return null;
  const [accounts, pending] = await Promise.all([
    db
      .selectFrom('mailboxes')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('owner_id', '=', ownerId)
      .where('kind', '=', 'account')
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('owner_id', '=', ownerId)
      .where('status', '=', 'pending')
      .where('expires_at', '>', now)
      .executeTakeFirstOrThrow(),
  ]);
  return Math.max(0, owner.max_mailboxes - Number(accounts.count) - Number(pending.count));
}

/**
 * Refuses when the domain owner's `maxMailboxes` (0 = unlimited) is reached. On PostgreSQL the
 * owner's row is locked for the rest of the transaction so that two creations cannot both take the
 * last place; SQLite transactions already write one at a time.
 */
export async function ensureMailboxLimit(
  trx: Transaction<Database>,
  engine: Engine,
  ownerId: number,
): Promise<void> {
  let query = trx.selectFrom('system_accounts').select('max_mailboxes').where('id', '=', ownerId);
  if (engine === 'postgres') query = query.forUpdate();
  const owner = await query.executeTakeFirst();
  if (!owner || owner.max_mailboxes <= 0) return;
  const { count } = await trx
    .selectFrom('mailboxes')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('owner_id', '=', ownerId)
    .where('kind', '=', 'account')
    .executeTakeFirstOrThrow();
  if (Number(count) >= owner.max_mailboxes) {
    throw ApiError.forbidden(
      `该域名所属账号的邮箱数量已达上限（${owner.max_mailboxes} 个），请联系管理员调整`,
    );
  }
}

export interface NewAccount {
  localPart: string;
  domain: { id: number; name: string; owner_id: number };
  passwordHash: string;
  quotaBytes: number;
  expiresAt: number | null;
  source: string;
  note?: string;
  enabled?: boolean;
}

/** Inserts a mailbox account after checking the address is free. Call inside a transaction. */
export async function insertAccount(trx: Transaction<Database>, input: NewAccount): Promise<MailboxRow> {
  const localPart = input.localPart.toLowerCase();
  const address = `${localPart}@${input.domain.name}`;
  const taken = await addressTakenReason(trx, address);
  if (taken) throw ApiError.conflict(taken);
  return trx
    .insertInto('mailboxes')
    .values({
      address,
      local_part: localPart,
      domain_id: input.domain.id,
      owner_id: input.domain.owner_id,
      kind: 'account',
      password_hash: input.passwordHash,
      enabled: input.enabled === false ? 0 : 1,
      quota_bytes: input.quotaBytes,
      used_bytes: 0,
      expires_at: input.expiresAt,
      source: input.source,
      note: input.note ?? '',
      created_at: Date.now(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Removes mailboxes with everything that refers to them, in the caller's transaction: sessions end,
 * received mail goes (the messages, then raw bytes no other message shares).
 */
export async function deleteMailboxes(trx: Transaction<Database>, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  await trx
    .updateTable('sessions')
    .set({ revoked_at: Date.now() })
    .where('subject_kind', '=', 'mailbox')
    .where('subject_id', 'in', ids)
    .where('revoked_at', 'is', null)
    .execute();
  // Received mail goes first; raw bytes shared with other recipients' copies stay (mail module's
  // deleteOrphanRaw decides, 1000 at a time).
  const rawIds = (
    await trx.selectFrom('messages').select('raw_id').distinct().where('mailbox_id', 'in', ids).execute()
  ).map((row) => row.raw_id);
  await trx.deleteFrom('messages').where('mailbox_id', 'in', ids).execute();
  for (let start = 0; start < rawIds.length; start += 1000) {
    await deleteOrphanRaw(trx, rawIds.slice(start, start + 1000));
  }
  const result = await trx.deleteFrom('mailboxes').where('id', 'in', ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}
