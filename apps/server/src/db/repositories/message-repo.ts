import { type ExpressionBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { Engine } from '../database.js';
import type { Database, MessageRow, NewMessageRow } from '../schema.js';
import type { OwnerScope } from './domain-repo.js';
import type { Queryable } from './queryable.js';

/**
 * Whose mail a query reaches: every mailbox, the mailboxes of one owner account, or one mailbox.
 * The services decide which applies to a caller; the queries below only apply it.
 */
export type MailboxScope = OwnerScope | { kind: 'mailbox'; mailboxId: number };

/** The listing columns of a message (no bodies), with its mailbox's address. */
const ITEM_COLUMNS = [
  'messages.id',
  'mailboxes.address',
  'messages.from_name',
  'messages.from_address',
  'messages.subject',
  'messages.snippet',
  'messages.received_at',
  'messages.read',
  'messages.starred',
  'messages.spam',
  'messages.has_attachments',
  'messages.size',
] as const;

export type MessageItemRow = Pick<
  MessageRow,
  | 'id'
  | 'from_name'
  | 'from_address'
  | 'subject'
  | 'snippet'
  | 'received_at'
  | 'read'
  | 'starred'
  | 'spam'
  | 'has_attachments'
  | 'size'
> & { address: string };

type ScopedMessages = SelectQueryBuilder<Database, 'messages' | 'mailboxes', object>;

/** Messages joined to their mailbox, narrowed to `scope`. */
function scopedMessages(db: Queryable, scope: MailboxScope): ScopedMessages {
  const base = db.selectFrom('messages').innerJoin('mailboxes', 'mailboxes.id', 'messages.mailbox_id');
  if (scope.kind === 'mailbox') return base.where('mailboxes.id', '=', scope.mailboxId);
  if (scope.kind === 'owner') return base.where('mailboxes.owner_id', '=', scope.ownerId);
  return base;
}

/** The ids among `ids` of messages within `scope`. */
export async function findScopedMessageIds(
  db: Queryable,
  scope: MailboxScope,
  ids: number[],
): Promise<number[]> {
  const rows = await scopedMessages(db, scope)
    .select('messages.id')
    .where('messages.id', 'in', ids)
    .execute();
  return rows.map((row) => row.id);
}

/** One message within `scope`, whole, with its mailbox's address. */
export async function findScopedMessage(
  db: Queryable,
  scope: MailboxScope,
  id: number,
): Promise<(MessageRow & { address: string }) | undefined> {
  return scopedMessages(db, scope)
    .selectAll('messages')
    .select('mailboxes.address')
    .where('messages.id', '=', id)
    .executeTakeFirst();
}

/** The raw message of a message within `scope` whose Message-ID is one of `messageIds`. */
export async function findScopedRawIdByMessageId(
  db: Queryable,
  scope: MailboxScope,
  messageIds: string[],
): Promise<number | undefined> {
  const row = await scopedMessages(db, scope)
    .select('messages.raw_id')
    .where('messages.message_id', 'in', messageIds)
    .executeTakeFirst();
  return row?.raw_id;
}

/** Up to `limit` ids of messages within `scope` received between `start` and `end` (inclusive). */
export async function findScopedMessageIdsReceivedBetween(
  db: Queryable,
  scope: MailboxScope,
  range: { start: number; end: number; address?: string },
  limit: number,
): Promise<number[]> {
  let query = scopedMessages(db, scope)
    .select('messages.id')
    .where('messages.received_at', '>=', range.start)
    .where('messages.received_at', '<=', range.end);
  if (range.address !== undefined) query = query.where('mailboxes.address', '=', range.address);
  return (await query.limit(limit).execute()).map((row) => row.id);
}

/** Listing rows of the messages `ids`, with the id and owner of their mailbox. */
export async function findMessageItemsWithMailbox(
  db: Queryable,
  ids: number[],
): Promise<(MessageItemRow & { mailbox_id: number; owner_id: number })[]> {
  return db
    .selectFrom('messages')
    .innerJoin('mailboxes', 'mailboxes.id', 'messages.mailbox_id')
    .select(ITEM_COLUMNS)
    .select(['mailboxes.id as mailbox_id', 'mailboxes.owner_id'])
    .where('messages.id', 'in', ids)
    .execute();
}

export async function insertMessage(db: Queryable, row: NewMessageRow): Promise<number> {
  const inserted = await db.insertInto('messages').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export async function markMessageRead(db: Queryable, id: number): Promise<void> {
  await db.updateTable('messages').set({ read: 1 }).where('id', '=', id).execute();
}

export async function setMessagesRead(db: Queryable, ids: number[], read: number): Promise<void> {
  await db.updateTable('messages').set({ read }).where('id', 'in', ids).execute();
}

export async function updateMessageFlags(
  db: Queryable,
  id: number,
  changes: { starred?: number; spam?: number },
): Promise<void> {
  await db.updateTable('messages').set(changes).where('id', '=', id).execute();
}

/** What deleting the messages `ids` gives back: their mailbox, raw message and size. */
export async function findMessagesToDelete(
  db: Queryable,
  ids: number[],
): Promise<Pick<MessageRow, 'id' | 'mailbox_id' | 'raw_id' | 'size'>[]> {
  return db
    .selectFrom('messages')
    .select(['id', 'mailbox_id', 'raw_id', 'size'])
    .where('id', 'in', ids)
    .execute();
}

export async function deleteMessagesByIds(db: Queryable, ids: number[]): Promise<void> {
  await db.deleteFrom('messages').where('id', 'in', ids).execute();
}

/** The raw messages the mail of the mailboxes `mailboxIds` refers to, each once. */
export async function findRawIdsOfMailboxes(db: Queryable, mailboxIds: number[]): Promise<number[]> {
  const rows = await db
    .selectFrom('messages')
    .select('raw_id')
    .distinct()
    .where('mailbox_id', 'in', mailboxIds)
    .execute();
  return rows.map((row) => row.raw_id);
}

/** Deletes all the mail of the mailboxes `mailboxIds` (their raw messages stay: see raw-message-repo). */
export async function deleteMessagesOfMailboxes(db: Queryable, mailboxIds: number[]): Promise<void> {
  await db.deleteFrom('messages').where('mailbox_id', 'in', mailboxIds).execute();
}

/** Up to `limit` ids of the messages of one mailbox. */
export async function findMessageIdsOfMailbox(
  db: Queryable,
  mailboxId: number,
  limit: number,
): Promise<number[]> {
  return (
    await db.selectFrom('messages').select('id').where('mailbox_id', '=', mailboxId).limit(limit).execute()
  ).map((row) => row.id);
}

/** Up to `limit` ids of messages received before `cutoff`. */
export async function findMessageIdsReceivedBefore(
  db: Queryable,
  cutoff: number,
  limit: number,
): Promise<number[]> {
  return (
    await db.selectFrom('messages').select('id').where('received_at', '<', cutoff).limit(limit).execute()
  ).map((row) => row.id);
}

/** The newest message of a mailbox (by id). */
export async function findLatestMessageIdOfMailbox(
  db: Queryable,
  mailboxId: number,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('messages')
    .select('id')
    .where('mailbox_id', '=', mailboxId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

/** The oldest message of a mailbox with an id above `after`, among `ids` (any when ids is null). */
export async function findFirstMessageIdOfMailboxAfter(
  db: Queryable,
  mailboxId: number,
  after: number,
  ids: number[] | null,
): Promise<number | undefined> {
  let query = db
    .selectFrom('messages')
    .select('id')
    .where('mailbox_id', '=', mailboxId)
    .where('id', '>', after)
    .orderBy('id', 'asc')
    .limit(1);
  if (ids) query = query.where('id', 'in', ids);
  const row = await query.executeTakeFirst();
  return row?.id;
}

// ---- subqueries for the other repositories' statements ----

/** The unread messages of the mailbox row of the outer query, counted (a scalar subquery). */
export function unreadMessageCount(eb: ExpressionBuilder<Database, 'mailboxes'>) {
  return eb
    .selectFrom('messages')
    .select((inner) => inner.fn.countAll<number>().as('count'))
    .whereRef('messages.mailbox_id', '=', 'mailboxes.id')
    .where('messages.read', '=', 0);
}

/** The messages that refer to the raw message row of the outer query. */
export function messagesOfRaw(eb: ExpressionBuilder<Database, 'raw_messages'>) {
  return eb.selectFrom('messages').select('messages.id').whereRef('messages.raw_id', '=', 'raw_messages.id');
}

// ---- dashboard figures ----

/** How days are cut: epoch milliseconds shifted by the time zone `offset`, `length` long. */
export interface DayBuckets {
  offset: number;
  length: number;
}

/** Messages received since `since` per day number (`days`). */
export async function countReceivedMessagesByDay(
  db: Queryable,
  scope: OwnerScope,
  since: number,
  days: DayBuckets,
): Promise<{ day: number; count: number }[]> {
  const day = sql<number>`(${sql.ref('messages.received_at')} + ${sql.lit(days.offset)}) / ${sql.lit(days.length)}`;
  return scopedMessages(db, scope)
    .select([day.as('day'), (eb) => eb.fn.countAll<number>().as('count')])
    .where('messages.received_at', '>=', since)
    .groupBy(day)
    .execute();
}

/** Messages received since `since`, and how many of them were marked spam (null when none). */
export async function countReceivedMessagesAndSpam(
  db: Queryable,
  scope: OwnerScope,
  since: number,
): Promise<{ total: number; spam: number | null }> {
  return scopedMessages(db, scope)
    .select([
      (eb) => eb.fn.countAll<number>().as('total'),
      (eb) => eb.fn.sum<number>(eb.case().when('messages.spam', '=', 1).then(1).else(0).end()).as('spam'),
    ])
    .where('messages.received_at', '>=', since)
    .executeTakeFirstOrThrow();
}

/** Mailboxes that received mail since `since`. */
export async function countMailboxesReceivingSince(
  db: Queryable,
  scope: OwnerScope,
  since: number,
): Promise<number> {
  const row = await scopedMessages(db, scope)
    .select((eb) => eb.fn.count<number>('messages.mailbox_id').distinct().as('active'))
    .where('messages.received_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.active);
}

// ---- inbox listing and its text search ----

/** getInbox's filters besides the text: the address (lowercased), read and starred flags. */
export interface InboxFilters {
  address?: string;
  read?: number;
  starred?: number;
}

/**
 * How a text search runs: `pattern` (LIKE, wildcards escaped) always decides what matches; when
 * `phrase` is set the FTS5 trigram table narrows the rows it is evaluated on (SQLite only).
 */
export interface MessageTextSearch {
  pattern: string;
  phrase: string | null;
}

/** The trigram index answers text of at least this many characters (code points). */
const TRIGRAM = 3;

/**
 * SQLite plan choice. Below `smallScope` messages in the caller's filtered mailboxes a scan costs
 * tens of milliseconds, less than reading the index for a common word across everyone's mail.
 * Above it the index is used when it returns at most one row for every `scanToIndexRatio` messages
 * the scan would read (fetching a row by id costs several times more than scanning one, measured
 * at a million messages), and never for `candidateLimit` candidates or more.
 */
export interface SearchTuning {
  smallScope: number;
  scanToIndexRatio: number;
  candidateLimit: number;
}

export const DEFAULT_SEARCH_TUNING: SearchTuning = {
  smallScope: 50_000,
  scanToIndexRatio: 4,
  candidateLimit: 200_000,
};

/** LIKE pattern for a user's search text, with the wildcards escaped. */
export function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The text as one FTS5 phrase: inside double quotes nothing is query syntax but a doubled quote,
 * and with the trigram tokenizer a phrase matches wherever the text occurs as a substring of one
 * column (https://sqlite.org/fts5.html#fts5_strings, #the_trigram_tokenizer).
 */
function trigramPhrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/**
 * The search's meaning, on both engines and whichever index helps: the lowercased text is a
 * substring of `lower(column)` for subject, sender name, sender address or body text.
 */
function textMatches(eb: ExpressionBuilder<Database, 'messages' | 'mailboxes'>, pattern: string) {
  const like = (column: 'subject' | 'from_name' | 'from_address' | 'text_body') =>
    sql<boolean>`lower(${eb.ref(`messages.${column}`)}) like ${pattern} escape '\\'`;
  return eb.or([like('subject'), like('from_name'), like('from_address'), like('text_body')]);
}

function inboxMessages(
  db: Queryable,
  scope: MailboxScope,
  filters: InboxFilters,
  search?: MessageTextSearch,
): ScopedMessages {
  let query = scopedMessages(db, scope);
  if (filters.address !== undefined) query = query.where('mailboxes.address', '=', filters.address);
  if (filters.read !== undefined) query = query.where('messages.read', '=', filters.read);
  if (filters.starred !== undefined) query = query.where('messages.starred', '=', filters.starred);
  if (!search) return query;
  const { pattern, phrase } = search;
  if (phrase !== null) {
    query = query.where(
      (eb) =>
        sql<boolean>`${eb.ref('messages.id')} in (select rowid from messages_search
                where messages_search match ${phrase})`,
    );
  }
  return query.where((eb) => textMatches(eb, pattern));
}

/** Rows of `query`, counted up to `cap`. */
async function countUpTo(db: Queryable, query: ScopedMessages, cap: number): Promise<number> {
  const row = await db
    .selectFrom(query.select(sql.lit(1).as('one')).limit(cap).as('capped'))
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

async function candidatesUpTo(db: Queryable, phrase: string, cap: number): Promise<number> {
  const { rows } = await sql<{ count: number }>`select count(*) as count from (select rowid
      from messages_search where messages_search match ${phrase} limit ${cap})`.execute(db);
  return Number(rows[0]?.count ?? 0);
}

/**
 * getInbox's text search (`q`) over the messages of `scope` with `filters`. The LIKE condition
 * always decides what matches; an index only narrows the rows it is evaluated on. On PostgreSQL
 * the planner does that with the pg_trgm indexes of migration 025. On SQLite, for text of three or
 * more characters, the FTS5 trigram table `messages_search` gives the candidate ids: it folds case
 * over all of Unicode, where SQLite's lower() and LIKE fold only ASCII, so its rows are a superset
 * of the LIKE matches and the results are exactly those of a plain scan. Shorter text (two Chinese
 * characters are a common word) has no trigram and is scanned, within the caller's mailboxes as
 * ever. SQLite has no statistics for the FTS table, so the choice between index and scan is ours.
 */
export async function planMessageTextSearch(
  db: Queryable,
  engine: Engine,
  scope: MailboxScope,
  filters: InboxFilters,
  text: string,
  tuning: SearchTuning = DEFAULT_SEARCH_TUNING,
): Promise<MessageTextSearch> {
  const pattern = likePattern(text);
  const lowered = text.toLowerCase();
  const useTrigramIndex = async (): Promise<boolean> => {
    const { smallScope, scanToIndexRatio, candidateLimit } = tuning;
    if (engine !== 'sqlite' || [...lowered].length < TRIGRAM) return false;
    if ((await countUpTo(db, inboxMessages(db, scope, filters), smallScope)) < smallScope) return false;
    const candidates = await candidatesUpTo(db, trigramPhrase(lowered), candidateLimit);
    if (candidates >= candidateLimit) return false;
    const worthIt = candidates * scanToIndexRatio;
    return (
      worthIt <= smallScope || (await countUpTo(db, inboxMessages(db, scope, filters), worthIt)) >= worthIt
    );
  };
  return { pattern, phrase: (await useTrigramIndex()) ? trigramPhrase(lowered) : null };
}

/** One page of the inbox, newest first. */
export async function listInboxMessages(
  db: Queryable,
  scope: MailboxScope,
  filters: InboxFilters,
  search: MessageTextSearch | undefined,
  page: { limit: number; offset: number },
): Promise<MessageItemRow[]> {
  return inboxMessages(db, scope, filters, search)
    .select(ITEM_COLUMNS)
    .orderBy('messages.received_at', 'desc')
    .orderBy('messages.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countInboxMessages(
  db: Queryable,
  scope: MailboxScope,
  filters: InboxFilters,
  search: MessageTextSearch | undefined,
): Promise<number> {
  const row = await inboxMessages(db, scope, filters, search)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
