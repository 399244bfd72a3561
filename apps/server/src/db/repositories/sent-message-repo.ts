import { type Insertable, type SelectQueryBuilder, sql } from 'kysely';
import type { Database, SentMessageRow, SentMessageTable } from '../schema.js';
import type { OwnerScope } from './domain-repo.js';
import type { DayBuckets } from './message-repo.js';
import type { Queryable } from './queryable.js';

/**
 * Whose sent items a query reaches: everyone's, what one system account sent, or what one mailbox
 * sent. The services decide which applies to a caller; the queries only apply it.
 */
export type SentMessageScope =
  | { kind: 'all' }
  | { kind: 'account'; accountId: number }
  | { kind: 'mailbox'; mailboxId: number };

function scoped(
  db: Queryable,
  scope: SentMessageScope,
): SelectQueryBuilder<Database, 'sent_messages', object> {
  // Forwarded copies and returned bounces (migration 053) use the queue but are nobody's sent mail.
  const query = db.selectFrom('sent_messages').where('kind', '=', 'sent');
  if (scope.kind === 'mailbox') return query.where('mailbox_id', '=', scope.mailboxId);
  if (scope.kind === 'account') return query.where('account_id', '=', scope.accountId);
  return query;
}

/** One page of the sent items in scope, newest first. */
export async function listSentMessages(
  db: Queryable,
  scope: SentMessageScope,
  page: { limit: number; offset: number },
): Promise<SentMessageRow[]> {
  return scoped(db, scope)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countSentMessages(db: Queryable, scope: SentMessageScope): Promise<number> {
  const row = await scoped(db, scope)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A sent item, if it is in scope. */
export async function findSentMessage(
  db: Queryable,
  scope: SentMessageScope,
  id: number,
): Promise<SentMessageRow | undefined> {
  return scoped(db, scope).selectAll().where('id', '=', id).executeTakeFirst();
}

/** The ids among `ids` of sent items in scope. */
export async function findSentMessageIds(
  db: Queryable,
  scope: SentMessageScope,
  ids: number[],
): Promise<number[]> {
  const rows = await scoped(db, scope).select('id').where('id', 'in', ids).execute();
  return rows.map((row) => row.id);
}

/** What a bounce quotes of the message it is about. */
export async function findSentMessageHeadline(
  db: Queryable,
  id: number,
): Promise<Pick<SentMessageRow, 'from_address' | 'message_id' | 'subject' | 'created_at'> | undefined> {
  return db
    .selectFrom('sent_messages')
    .select(['from_address', 'message_id', 'subject', 'created_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Stores a sent item; its bytes follow with insertSentMessageChunk. Returns its id. */
export async function insertSentMessage(
  db: Queryable,
  values: Omit<Insertable<SentMessageTable>, 'id'>,
): Promise<number> {
  const row = await db.insertInto('sent_messages').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Stores slice `seq` (from 0) of a sent message's signed bytes. */
export async function insertSentMessageChunk(
  db: Queryable,
  sentId: number,
  seq: number,
  data: Buffer,
): Promise<void> {
  await db.insertInto('sent_message_chunks').values({ sent_id: sentId, seq, data }).execute();
}

/** Slice `seq` of a sent message's bytes, or undefined past the last one. */
export async function findSentMessageChunk(
  db: Queryable,
  sentId: number,
  seq: number,
): Promise<Buffer | undefined> {
  const row = await db
    .selectFrom('sent_message_chunks')
    .select('data')
    .where('sent_id', '=', sentId)
    .where('seq', '=', seq)
    .executeTakeFirst();
  return row?.data;
}

/** Removes sent items with their bytes (chunks first); run it in a transaction. */
export async function deleteSentMessages(db: Queryable, ids: number[]): Promise<void> {
  await db.deleteFrom('sent_message_chunks').where('sent_id', 'in', ids).execute();
  await db.deleteFrom('sent_messages').where('id', 'in', ids).execute();
}

/** Messages sent within `scope` (by their account) since `since`, per day number (`days`). */
export async function countSentMessagesByDay(
  db: Queryable,
  scope: OwnerScope,
  since: number,
  days: DayBuckets,
): Promise<{ day: number; count: number }[]> {
  let query = db
    .selectFrom('sent_messages')
    .where('sent_messages.kind', '=', 'sent')
    .where('sent_messages.created_at', '>=', since);
  if (scope.kind === 'owner') query = query.where('sent_messages.account_id', '=', scope.ownerId);
  const day = sql<number>`(${sql.ref('sent_messages.created_at')} + ${sql.lit(days.offset)}) / ${sql.lit(days.length)}`;
  return query
    .select([day.as('day'), (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy(day)
    .execute();
}

/** Whether anything was ever sent in `scope` (the first-run checklist's test mail). */
export async function hasSentMessages(db: Queryable, scope: OwnerScope): Promise<boolean> {
  let query = db
    .selectFrom('sent_messages')
    .select('sent_messages.id')
    .where('sent_messages.kind', '=', 'sent');
  if (scope.kind === 'owner') query = query.where('sent_messages.account_id', '=', scope.ownerId);
  const row = await query.limit(1).executeTakeFirst();
  return row !== undefined;
}
