import type { EmailAccount } from '@youju/contract';
import {
  deleteMailboxesByIds,
  findMailboxIdByAddress,
  insertMailbox,
} from '../../db/repositories/mailbox-repo.js';
import { deleteMessagesOfMailboxes, findRawIdsOfMailboxes } from '../../db/repositories/message-repo.js';
import { orderHoldsAddress } from '../../db/repositories/order-repo.js';
import type { Queryable } from '../../db/repositories/queryable.js';
import { deleteOrphanRawMessages } from '../../db/repositories/raw-message-repo.js';
import { revokeOpenSessionsOfMailboxes } from '../../db/repositories/session-repo.js';
import type { MailboxRow } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import { toIso } from '../../lib/time.js';

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
    // A one-click mailbox keeps its expiry even with a generated or chosen password.
    temporary: row.password_hash === null || row.source === 'temporary',
  };
}

/**
 * Why `address` cannot be given out, in Chinese, or null when it is free: an existing mailbox or
 * address of any kind, or a store order that still holds it (unpaid and not yet expired, or paid
 * and awaiting delivery).
 */
export async function addressTakenReason(
  db: Queryable,
  address: string,
  now = Date.now(),
): Promise<string | null> {
  if ((await findMailboxIdByAddress(db, address)) !== undefined) return `邮箱 ${address} 已被占用`;
  if (await orderHoldsAddress(db, address, now)) return `邮箱 ${address} 已被其他订单预留，请换一个前缀`;
  return null;
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
export async function insertAccount(trx: Queryable, input: NewAccount): Promise<MailboxRow> {
  const taken = await addressTakenReason(trx, accountAddress(input));
  if (taken) throw ApiError.conflict(taken);
  return insertAccountRow(trx, input, Date.now());
}

/**
 * Inserts the mailbox account a paid store order delivers, in the transaction that marks the order
 * delivered. The order itself still holds the address, so only an existing mailbox makes it taken:
 * then nothing is inserted and this returns null (the order records why). No mailbox limit applies:
 * the buyer has paid, and the store's stock already counted the order.
 */
export async function insertOrderedAccount(
  trx: Queryable,
  input: NewAccount,
  createdAt: number,
): Promise<MailboxRow | null> {
  if ((await findMailboxIdByAddress(trx, accountAddress(input))) !== undefined) return null;
  return insertAccountRow(trx, input, createdAt);
}

function accountAddress(input: NewAccount): string {
  return `${input.localPart.toLowerCase()}@${input.domain.name}`;
}

function insertAccountRow(trx: Queryable, input: NewAccount, createdAt: number): Promise<MailboxRow> {
  const localPart = input.localPart.toLowerCase();
  return insertMailbox(trx, {
    address: accountAddress(input),
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
    created_at: createdAt,
  });
}

/**
 * Removes mailboxes with everything that refers to them, in the caller's transaction: sessions end,
 * received mail goes (the messages, then raw bytes no other message shares).
 */
export async function deleteMailboxes(trx: Queryable, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  await revokeOpenSessionsOfMailboxes(trx, ids, Date.now());
  // Received mail goes first; raw bytes shared with other recipients' copies stay
  // (deleteOrphanRawMessages decides, 1000 at a time).
  const rawIds = await findRawIdsOfMailboxes(trx, ids);
  await deleteMessagesOfMailboxes(trx, ids);
  for (let start = 0; start < rawIds.length; start += 1000) {
    await deleteOrphanRawMessages(trx, rawIds.slice(start, start + 1000));
  }
  return deleteMailboxesByIds(trx, ids);
}
