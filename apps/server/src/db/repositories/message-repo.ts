import { type ExpressionBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { runCompiled } from '../compiled-query.js';
import type { Engine } from '../database.js';
import type { Database, FolderName, MessageRow, NewMessageRow } from '../schema.js';
import { BIGRAM, bigramQuery } from '../search-bigrams.js';
import type { OwnerScope } from './domain-repo.js';
import {
  advanceModseq,
  advanceModseqOfFolders,
  folderModseqOfMessage,
  reserveUids,
  withTransaction,
} from './folder-repo.js';
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
  'messages.code',
  'messages.auth',
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
  | 'code'
  | 'auth'
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

/** A new message row: its UID and modseq come from its folder (`insertMessage`). */
export type NewMessageInFolder = Omit<NewMessageRow, 'uid' | 'modseq'>;

/**
 * Inserts messages, each taking the next UID of its folder: one UID reservation per mailbox and
 * folder for the whole batch (the ingest path stores one row per recipient mailbox). Returns the
 * ids in the order of `rows`. Runs in the caller's transaction, or in one of its own.
 */
export async function insertMessages(db: Queryable, rows: NewMessageInFolder[]): Promise<number[]> {
  if (rows.length === 0) return [];
  return withTransaction(db, async (trx) => {
    const groups = new Map<string, number[]>();
    rows.forEach((row, index) => {
      const key = `${row.mailbox_id}:${row.folder ?? 'inbox'}`;
      groups.set(key, [...(groups.get(key) ?? []), index]);
    });
    const numbered: NewMessageRow[] = new Array(rows.length);
    // Folder rows are locked in one order (mailbox, then folder) by every writer: no deadlock.
    for (const key of [...groups.keys()].sort()) {
      const indexes = groups.get(key) ?? [];
      const first = rows[indexes[0] as number] as NewMessageInFolder;
      const folder = first.folder ?? 'inbox';
      const { firstUid, modseq } = await reserveUids(trx, first.mailbox_id, folder, indexes.length);
      indexes.forEach((index, offset) => {
        numbered[index] = { ...(rows[index] as NewMessageInFolder), folder, uid: firstUid + offset, modseq };
      });
    }
    const ids: number[] = [];
    for (const row of numbered) {
      // Every stored message: compiled once per set of columns (compiled-query.ts). The owner
      // comes from the mailbox in the same statement (migration 059), whatever a copied row says.
      const columns = (Object.keys(row) as (keyof NewMessageRow)[]).filter(
        (column) => (column as string) !== 'owner_id',
      );
      const mailboxValue = columns.indexOf('mailbox_id');
      const { rows: inserted } = await runCompiled(
        trx,
        'insertMessage',
        columns.join(),
        columns.map((column) => row[column]),
        (values) =>
          trx
            .insertInto('messages')
            .values({
              ...Object.fromEntries(columns.map((column, index) => [column, values[index]])),
              owner_id: sql`(select owner_id from mailboxes where id = ${values[mailboxValue]})`,
            } as never)
            .returning('id'),
      );
      const id = inserted[0]?.id;
      if (id === undefined) throw new Error('insert into messages returned no id');
      ids.push(id);
    }
    return ids;
  });
}

export async function insertMessage(db: Queryable, row: NewMessageInFolder): Promise<number> {
  const [id] = await insertMessages(db, [row]);
  return id as number;
}

/** The columns a flag change may set on messages. */
export interface MessageFlagChanges {
  read?: number;
  starred?: number;
  spam?: number;
  flags?: number;
  keywords?: string;
}

/** The (mailbox, folder) pairs of the messages `ids`, each once, in locking order. */
async function foldersOf(
  db: Queryable,
  ids: number[],
): Promise<{ mailbox_id: number; folder: FolderName }[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('messages')
    .select(['mailbox_id', 'folder'])
    .distinct()
    .where('id', 'in', ids)
    .execute();
  return rows.sort((a, b) => a.mailbox_id - b.mailbox_id || a.folder.localeCompare(b.folder));
}

/**
 * Changes flags of messages and gives each changed message its folder's next modseq, so IMAP
 * sessions polling the folder row see it (RFC 7162 section 3.1). A change of `spam` also moves
 * the message between `inbox` and `junk` (the web's "mark as spam").
 */
export async function changeMessageFlags(
  db: Queryable,
  ids: number[],
  changes: MessageFlagChanges,
): Promise<void> {
  if (ids.length === 0 || Object.keys(changes).length === 0) return;
  await withTransaction(db, async (trx) => {
    const { spam, ...rest } = changes;
    for (const { mailbox_id, folder } of await foldersOf(trx, ids)) {
      const modseq = await advanceModseq(trx, mailbox_id, folder);
      if (modseq === undefined) continue;
      await trx
        .updateTable('messages')
        .set({ ...rest, ...(spam === undefined ? {} : { spam }), modseq })
        .where('id', 'in', ids)
        .where('mailbox_id', '=', mailbox_id)
        .where('folder', '=', folder)
        .execute();
    }
    if (spam === 1) await moveMessagesBetween(trx, ids, 'inbox', 'junk');
    if (spam === 0) await moveMessagesBetween(trx, ids, 'junk', 'inbox');
  });
}

async function moveMessagesBetween(trx: Queryable, ids: number[], from: FolderName, to: FolderName) {
  const inFolder = await trx
    .selectFrom('messages')
    .select('id')
    .where('id', 'in', ids)
    .where('folder', '=', from)
    .execute();
  if (inFolder.length > 0)
    await moveMessages(
      trx,
      inFolder.map((row) => row.id),
      to,
    );
}

/**
 * Moves messages to folder `to` (RFC 6851): each gets the next UID there, both folders a new
 * modseq. Returns the old and new UIDs in the order of the old ones (for COPYUID).
 */
export async function moveMessages(
  db: Queryable,
  ids: number[],
  to: FolderName,
): Promise<{ id: number; fromUid: number; toUid: number }[]> {
  if (ids.length === 0) return [];
  return withTransaction(db, async (trx) => {
    const rows = await trx
      .selectFrom('messages')
      .select(['id', 'mailbox_id', 'folder', 'uid'])
      .where('id', 'in', ids)
      .orderBy('mailbox_id')
      .orderBy('uid')
      .execute();
    const moving = rows.filter((row) => row.folder !== to);
    const result: { id: number; fromUid: number; toUid: number }[] = [];
    const touched = [...new Set(moving.map((row) => `${row.mailbox_id}:${row.folder}`))].sort();
    for (const key of touched) {
      const [mailbox, folder] = key.split(':') as [string, FolderName];
      await advanceModseq(trx, Number(mailbox), folder);
    }
    for (const mailboxId of [...new Set(moving.map((row) => row.mailbox_id))]) {
      const mine = moving.filter((row) => row.mailbox_id === mailboxId);
      const { firstUid, modseq } = await reserveUids(trx, mailboxId, to, mine.length);
      for (const [offset, row] of mine.entries()) {
        await trx
          .updateTable('messages')
          .set({ folder: to, uid: firstUid + offset, modseq, spam: to === 'junk' ? 1 : 0 })
          .where('id', '=', row.id)
          .execute();
        result.push({ id: row.id, fromUid: row.uid, toUid: firstUid + offset });
      }
    }
    return result;
  });
}

export async function markMessageRead(db: Queryable, id: number): Promise<void> {
  await changeMessageFlags(db, [id], { read: 1 });
}

export async function setMessagesRead(db: Queryable, ids: number[], read: number): Promise<void> {
  await changeMessageFlags(db, ids, { read });
}

export async function setMessagesStarred(db: Queryable, ids: number[], starred: number): Promise<void> {
  await changeMessageFlags(db, ids, { starred });
}

/** The folders whose unread messages count as new mail (see `unreadMessageCount`). */
const RECEIVED_FOLDERS: FolderName[] = ['inbox', 'junk'];

/**
 * Marks every unread received message (inbox and junk) within `scope`, or of the one mailbox
 * `mailboxId` within it, read: one UPDATE of the folders (their modseq, so IMAP sessions see the
 * change, RFC 7162 section 3.1.1) and one of the messages, whatever the number of mailboxes.
 * Returns how many messages changed.
 */
export async function markReceivedMessagesRead(
  db: Queryable,
  scope: MailboxScope,
  mailboxId?: number,
): Promise<number> {
  // The unread received messages in reach, under another name so that they can refer to the
  // outer statement's row.
  const unread = (trx: Queryable) => {
    let query = trx
      .selectFrom('messages as unread')
      .innerJoin('mailboxes as owner', 'owner.id', 'unread.mailbox_id')
      .where('unread.read', '=', 0)
      .where('unread.folder', 'in', RECEIVED_FOLDERS);
    if (scope.kind === 'mailbox') query = query.where('unread.mailbox_id', '=', scope.mailboxId);
    if (scope.kind === 'owner') query = query.where('owner.owner_id', '=', scope.ownerId);
    if (mailboxId !== undefined) query = query.where('unread.mailbox_id', '=', mailboxId);
    return query;
  };
  return withTransaction(db, async (trx) => {
    await advanceModseqOfFolders(trx, (eb) =>
      eb.and([
        eb('mail_folders.name', 'in', RECEIVED_FOLDERS),
        eb.exists(
          unread(trx)
            .select('unread.id')
            .where('unread.mailbox_id', '=', eb.ref('mail_folders.mailbox_id'))
            .where('unread.folder', '=', eb.ref('mail_folders.name')),
        ),
      ]),
    );
    const result = await trx
      .updateTable('messages')
      .set((eb) => ({
        read: 1,
        modseq: eb.fn.coalesce(folderModseqOfMessage(eb), eb.ref('messages.modseq')),
      }))
      .where('messages.id', 'in', unread(trx).select('unread.id'))
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  });
}

export async function updateMessageFlags(
  db: Queryable,
  id: number,
  changes: { starred?: number; spam?: number },
): Promise<void> {
  await changeMessageFlags(db, [id], changes);
}

/** What deleting the messages `ids` gives back: their mailbox, raw message and size. */
export async function findMessagesToDelete(
  db: Queryable,
  ids: number[],
): Promise<Pick<MessageRow, 'id' | 'mailbox_id' | 'raw_id' | 'size' | 'folder'>[]> {
  return db
    .selectFrom('messages')
    .select(['id', 'mailbox_id', 'raw_id', 'size', 'folder'])
    .where('id', 'in', ids)
    .execute();
}

/**
 * Deletes messages; their folders get a new modseq first (folder rows are locked before message
 * rows on every path), so IMAP sessions notice the EXPUNGE.
 */
export async function deleteMessagesByIds(db: Queryable, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await withTransaction(db, async (trx) => {
    for (const { mailbox_id, folder } of await foldersOf(trx, ids)) {
      await advanceModseq(trx, mailbox_id, folder);
    }
    await trx.deleteFrom('messages').where('id', 'in', ids).execute();
  });
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

/** Up to `limit` ids of messages received before `cutoff` (in `folder` only, when given). */
export async function findMessageIdsReceivedBefore(
  db: Queryable,
  cutoff: number,
  limit: number,
  folder?: FolderName,
): Promise<number[]> {
  let query = db.selectFrom('messages').select('id').where('received_at', '<', cutoff);
  if (folder) query = query.where('folder', '=', folder);
  return (await query.limit(limit).execute()).map((row) => row.id);
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
    // received mail only: what a mail client saves in Sent, Drafts or Trash is not "new mail"
    .where('folder', 'in', ['inbox', 'junk'])
    .orderBy('id', 'asc')
    .limit(1);
  if (ids) query = query.where('id', 'in', ids);
  const row = await query.executeTakeFirst();
  return row?.id;
}

// ---- subqueries for the other repositories' statements ----

/**
 * The unread received messages (inbox and junk, not what a mail client keeps in Sent, Drafts or
 * Trash) of the mailbox row of the outer query, counted (a scalar subquery).
 */
export function unreadMessageCount(eb: ExpressionBuilder<Database, 'mailboxes'>) {
  return eb
    .selectFrom('messages')
    .select((inner) => inner.fn.countAll<number>().as('count'))
    .whereRef('messages.mailbox_id', '=', 'mailboxes.id')
    .where('messages.read', '=', 0)
    .where('messages.folder', 'in', ['inbox', 'junk']);
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
  /** the folder listed (the web shows `inbox` and `junk`); all folders when absent */
  folder?: FolderName;
  read?: number;
  starred?: number;
}

/** One page of getInbox: `limit` messages after the first `offset`, newest first. */
export interface InboxPage {
  limit: number;
  offset: number;
}

/** A page's rows and how many messages match in all. */
export interface InboxResult {
  rows: MessageItemRow[];
  total: number;
}

/** Received at or after `since` and before `before` (null: no bound), in epoch milliseconds. */
interface ReceivedRange {
  since: number | null;
  before: number | null;
}

const ALL_TIME: ReceivedRange = { since: null, before: null };

/** The messages of `scope` that pass `filters` (and were received within `range`). */
function inboxMessages(
  db: Queryable,
  scope: MailboxScope,
  filters: InboxFilters,
  range: ReceivedRange = ALL_TIME,
): ScopedMessages {
  // All of an owner's mail by the owner on the message (migration 059): its index lists the
  // owner's folder newest first, where through `mailboxes.owner_id` SQLite read every entry of each
  // of the owner's mailboxes and sorted them (the newest 20 of an owner with a million messages:
  // 97 ms, against 0.2 ms from the owner's index). With an address the mailbox's own indexes are
  // the narrower.
  const query =
    scope.kind === 'owner' && filters.address === undefined
      ? db
          .selectFrom('messages')
          .innerJoin('mailboxes', 'mailboxes.id', 'messages.mailbox_id')
          .where('messages.owner_id', '=', scope.ownerId)
      : scopedMessages(db, scope);
  return passing(query, filters, range);
}

/** `query`'s messages that pass `filters` and were received within `range`. */
function passing(query: ScopedMessages, filters: InboxFilters, range: ReceivedRange): ScopedMessages {
  let passed = query;
  if (filters.address !== undefined) passed = passed.where('mailboxes.address', '=', filters.address);
  if (filters.folder !== undefined) passed = passed.where('messages.folder', '=', filters.folder);
  if (filters.read !== undefined) passed = passed.where('messages.read', '=', filters.read);
  if (filters.starred !== undefined) passed = passed.where('messages.starred', '=', filters.starred);
  if (range.since !== null) passed = passed.where('messages.received_at', '>=', range.since);
  if (range.before !== null) passed = passed.where('messages.received_at', '<', range.before);
  return passed;
}

/**
 * `query`'s messages newest first. Every index on the mailbox (and the one on received_at) ends
 * in (received_at, id) (migration 045), so a page's ids come from an index alone.
 */
function newestFirst(query: ScopedMessages) {
  return query.orderBy('messages.received_at', 'desc').orderBy('messages.id', 'desc');
}

/** The messages among `ids`, joined to their mailbox. */
function messagesAmong(
  db: Queryable,
  ids: number[] | SelectQueryBuilder<Database, 'messages' | 'mailboxes', { id: number }>,
): ScopedMessages {
  return db
    .selectFrom('messages')
    .innerJoin('mailboxes', 'mailboxes.id', 'messages.mailbox_id')
    .where('messages.id', 'in', ids);
}

/** Listing rows of `query`'s messages, newest first. */
function newestItems(query: ScopedMessages) {
  return newestFirst(query).select(ITEM_COLUMNS);
}

/**
 * One page of `query`: its ids first, from an index alone, and then only those rows. Reading and
 * sorting whole rows instead took 35 ms for an owner with 12,000 messages on SQLite; the ids alone
 * take 0.1 ms.
 */
function pageOfNewest(db: Queryable, query: ScopedMessages, page: InboxPage) {
  const ids = newestFirst(query).select('messages.id').limit(page.limit).offset(page.offset);
  return newestItems(messagesAmong(db, ids)).execute();
}

async function countRows(query: ScopedMessages): Promise<number> {
  const row = await query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Rows of `query`, counted up to `cap`. */
async function countUpTo(db: Queryable, query: ScopedMessages, cap: number): Promise<number> {
  const row = await db
    .selectFrom(query.select(sql.lit(1).as('one')).limit(cap).as('capped'))
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** How many messages of `scope` pass `filters` (and were received within `range`). */
async function countInboxMessages(
  db: Queryable,
  scope: MailboxScope,
  filters: InboxFilters,
  range: ReceivedRange = ALL_TIME,
): Promise<number> {
  const timeBound = range.since !== null || range.before !== null;
  if (scope.kind === 'mailbox' || filters.address !== undefined || (scope.kind === 'owner' && !timeBound)) {
    // All of an owner's folder is counted through the mailboxes, from their (mailbox_id, folder,
    // …) indexes, narrower than the owner's (a million entries: 40 ms against 55 on SQLite).
    return countRows(passing(scopedMessages(db, scope), filters, range));
  }
  // Every message has its mailbox (a foreign key), so all of them (or an owner's received within
  // the range, by the owner on the message) are counted without the join, from an index alone:
  // with the join each row is read for its mailbox (a million: 270 ms).
  let query = db.selectFrom('messages');
  if (scope.kind === 'owner') query = query.where('owner_id', '=', scope.ownerId);
  if (filters.folder !== undefined) query = query.where('folder', '=', filters.folder);
  if (filters.read !== undefined) query = query.where('read', '=', filters.read);
  if (filters.starred !== undefined) query = query.where('starred', '=', filters.starred);
  if (range.since !== null) query = query.where('received_at', '>=', range.since);
  if (range.before !== null) query = query.where('received_at', '<', range.before);
  const row = await query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** One page of the inbox (no text search), newest first, and how many messages it has in all. */
export async function listInboxPage(
  db: Queryable,
  scope: MailboxScope,
  filters: InboxFilters,
  page: InboxPage,
): Promise<InboxResult> {
  const [rows, total] = await Promise.all([
    scope.kind === 'owner' && filters.address === undefined
      ? pageOfOwner(db, scope.ownerId, filters, page)
      : pageOfNewest(db, inboxMessages(db, scope, filters), page),
    countInboxMessages(db, scope, filters),
  ]);
  return { rows, total };
}

/**
 * One page of all the mail of an owner: its ids from the owner's index of migration 059 alone
 * (page 1 reads 20 entries, where going through the mailboxes read and sorted every message of
 * the owner's folder), then only those rows.
 */
function pageOfOwner(db: Queryable, ownerId: number, filters: InboxFilters, page: InboxPage) {
  let ids = db.selectFrom('messages').select('id').where('owner_id', '=', ownerId);
  if (filters.folder !== undefined) ids = ids.where('folder', '=', filters.folder);
  if (filters.read !== undefined) ids = ids.where('read', '=', filters.read);
  if (filters.starred !== undefined) ids = ids.where('starred', '=', filters.starred);
  ids = ids.orderBy('received_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset);
  return newestItems(messagesAmong(db, ids)).execute();
}

/**
 * The trigram index answers text of at least this many characters (code points); text of BIGRAM
 * (two) characters has the pairs index of migration 056.
 */
const TRIGRAM = 3;

/**
 * How a text search runs. A scan reads the newest messages first and stops once the page is full,
 * so a common word costs little however much mail there is, while a rare one makes it read
 * everything; an index reads every candidate of the text across all mail, and the matches are
 * counted exactly. So on SQLite a search first asks the index for up to `smallScope` candidates
 * (never more than `candidateLimit`): fewer than that (a rare text, or one found nowhere) and they
 * are the answer. Otherwise it scans,
 * over at most `smallScope` messages (a scope that small is read whole), then takes an index (the
 * trigrams for three or more characters, the pairs of migration 056 for two) when it is worth
 * reading. SQLite has no statistics for its FTS5 table, so that choice is ours: the index when the
 * text has fewer than `candidateLimit` candidates and at most one for every `scanToIndexRatio`
 * messages of the scope, or else the scan goes on; when the scan's first messages held less than a
 * page, the scope is matched against all of the candidates at once instead (intersectedPage). On
 * PostgreSQL its planner makes the choice. `countedScope`: see scopeSize.
 */
export interface SearchTuning {
  smallScope: number;
  scanToIndexRatio: number;
  candidateLimit: number;
  countedScope?: number;
}

/** Beyond this many messages PostgreSQL's planner estimates a scope's size (scopeSize). */
const COUNTED_SCOPE = 50_000;

export const DEFAULT_SEARCH_TUNING: SearchTuning = {
  smallScope: 500,
  scanToIndexRatio: 4,
  candidateLimit: 10_000,
  countedScope: COUNTED_SCOPE,
};

/** LIKE pattern for a user's search text, with the wildcards escaped. */
export function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The text as an FTS5 query for the trigrams in it: the index (migration 048) keeps no positions,
 * so it cannot match the text as a phrase; the messages holding all of its trigrams are a superset
 * of those containing it, narrowed by LIKE afterwards. Each trigram is quoted, where nothing is
 * query syntax but a doubled quote (https://sqlite.org/fts5.html#fts5_strings). Text of at least
 * TRIGRAM characters only.
 *
 * FTS5 reads the whole list of messages of every trigram it is asked for, and trigrams of plain
 * ASCII letters ("sen", "der" of every sender@ address) are in most of the mail: "sender42@" cost
 * 5 ms with its seven trigrams against 0.27 ms with the three holding a digit or "@", among 112,000
 * messages. So when the text has trigrams with anything besides ASCII letters, only those are
 * asked for: fewer trigrams still give a superset of the matches, and LIKE decides.
 */
function trigramQuery(text: string): string {
  const characters = [...text];
  const trigrams = new Set<string>();
  for (let i = 0; i + TRIGRAM <= characters.length; i++) {
    trigrams.add(characters.slice(i, i + TRIGRAM).join(''));
  }
  const distinctive = [...trigrams].filter((trigram) => !/^[a-z]+$/i.test(trigram));
  const asked = distinctive.length > 0 ? distinctive : [...trigrams];
  return asked.map((trigram) => `"${trigram.replaceAll('"', '""')}"`).join(' AND ');
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

/**
 * The same test as textMatches, written as a substring search that no index answers, for the
 * scan: PostgreSQL would otherwise plan each slice's LIKE on the pg_trgm indexes and read every
 * candidate in all of the mail for each slice (about 40 ms a slice for "sender42@" at a million
 * messages). `lowered` is the text lowercased, as in its LIKE pattern.
 */
function textContains(
  eb: ExpressionBuilder<Database, 'messages' | 'mailboxes'>,
  engine: Engine,
  lowered: string,
) {
  const contains = (column: 'subject' | 'from_name' | 'from_address' | 'text_body') =>
    engine === 'postgres'
      ? sql<boolean>`strpos(lower(${eb.ref(`messages.${column}`)}), ${lowered}) > 0`
      : sql<boolean>`instr(lower(${eb.ref(`messages.${column}`)}), ${lowered}) > 0`;
  return eb.or([contains('subject'), contains('from_name'), contains('from_address'), contains('text_body')]);
}

/**
 * Ids the FTS5 table finds for a query, and the last message it had indexed before they were read:
 * every message up to that one is indexed, later ones may be or not.
 */
interface TrigramCandidates {
  ids: number[];
  indexedThrough: number;
}

/**
 * The candidates for `query` in the FTS5 table `index` (the trigrams of migration 025, or the pairs
 * of characters of migration 056), up to `cap` of them. The cursor is read first, in a statement of
 * its own: the store worker indexes between the two reads (migration 046), so the table then holds
 * at least what the cursor says. Read after, the cursor could name messages that the candidates
 * missed. The pairs index also has messages waiting to be indexed anew (`search_bigram_pending`,
 * migration 056): they are read before the index for the same reason, and are candidates.
 */
async function ftsCandidates(
  db: Queryable,
  index: 'messages_search' | 'messages_bigrams',
  query: string,
  cap: number,
): Promise<TrigramCandidates> {
  const cursor = await sql<{ last: number }>`select last_message_id as last from search_index_cursor`.execute(
    db,
  );
  const pending =
    index === 'messages_bigrams'
      ? (await sql<{ id: number }>`select id from search_bigram_pending`.execute(db)).rows
      : [];
  const { rows } = await sql<{ id: number }>`select rowid as id from ${sql.table(index)}
      where ${sql.table(index)} match ${query} limit ${cap}`.execute(db);
  return {
    ids: [...rows, ...pending].map((row) => row.id),
    indexedThrough: cursor.rows[0]?.last ?? 0,
  };
}

/** SQLite: up to `cap` candidates of `lowered` (two characters or more) from the index for its length. */
function sqliteCandidates(db: Queryable, lowered: string, cap: number): Promise<TrigramCandidates> {
  return [...lowered].length >= TRIGRAM
    ? ftsCandidates(db, 'messages_search', trigramQuery(lowered), cap)
    : ftsCandidates(db, 'messages_bigrams', bigramQuery(lowered), cap);
}

/** Listing rows of page `page` of `ids` (the ids of matches, newest first). */
/** Every match of a search, newest first: the page asked for, and how many there are. */
async function pageOfMatches(
  db: Queryable,
  matches: { id: number; received_at: number }[],
  page: InboxPage,
): Promise<InboxResult> {
  matches.sort((a, b) => b.received_at - a.received_at || b.id - a.id);
  const ids = matches.map((match) => match.id);
  return { rows: await pageAmong(db, ids, page), total: ids.length };
}

async function pageAmong(db: Queryable, ids: number[], page: InboxPage): Promise<MessageItemRow[]> {
  const pageIds = ids.slice(page.offset, page.offset + page.limit);
  return pageIds.length > 0 ? newestItems(messagesAmong(db, pageIds)).execute() : [];
}

/**
 * SQLite: a page of the messages of `messages` the pattern matches among the index's candidates,
 * and how many match. The table folds case over all of Unicode, where SQLite's lower() and LIKE
 * fold only ASCII, so its candidates are a superset of the LIKE matches; new mail enters it shortly
 * after it is stored (migration 046), so the messages after the cursor it had reached are
 * candidates too. The matches are ordered here: asked to, SQLite would walk the received_at index
 * for the order instead of the candidates (160 ms instead of 1 for one match in a million).
 */
async function candidatePage(
  db: Queryable,
  messages: ScopedMessages,
  pattern: string,
  { ids: candidates, indexedThrough }: TrigramCandidates,
  page: InboxPage,
): Promise<InboxResult> {
  const matches = await messages
    .where(
      (eb) =>
        // One list of ids, so that SQLite fetches each by rowid: written as `id in (…) or id > …` it
        // read every message of the scope instead (1.45 ms against 0.2 for 113 candidates among an
        // owner's 12,000 messages).
        sql<boolean>`${eb.ref('messages.id')} in (select value from json_each(${JSON.stringify(candidates)})
          union all select id from messages where id > ${indexedThrough})`,
    )
    .where((eb) => textMatches(eb, pattern))
    .select(['messages.id', 'messages.received_at'])
    .execute();
  return pageOfMatches(db, matches, page);
}

/**
 * SQLite: like candidatePage, with every candidate of the index (no cap), read inside the one
 * statement: SQLite walks the scope's index and looks each id up in the list of candidates, so
 * only the candidates within the scope are read whole. For a text the scope seems to hold little
 * of while all the mail holds much ("发票" in one address of 5,000 messages that has none, among a
 * million holding 100,000): 11 ms for the list where reading the address's messages, spread over
 * the store, took 20–70 ms. One statement reads one snapshot, so the cursor and the index agree
 * (ftsCandidates reads them in order for the same reason).
 */
async function intersectedPage(
  db: Queryable,
  messages: ScopedMessages,
  pattern: string,
  lowered: string,
  page: InboxPage,
): Promise<InboxResult> {
  const trigrams = [...lowered].length >= TRIGRAM;
  const index = sql.table(trigrams ? 'messages_search' : 'messages_bigrams');
  const query = trigrams ? trigramQuery(lowered) : bigramQuery(lowered);
  const pending = trigrams ? sql`` : sql`union all select id from search_bigram_pending`;
  const matches = await messages
    .where(
      (eb) =>
        sql<boolean>`${eb.ref('messages.id')} in (select rowid from ${index} where ${index} match ${query}
          ${pending}
          union all select id from messages where id > (select last_message_id from search_index_cursor))`,
    )
    .where((eb) => textMatches(eb, pattern))
    .select(['messages.id', 'messages.received_at'])
    .execute();
  return pageOfMatches(db, matches, page);
}

/**
 * The pairs-of-characters index of migration 056 on PostgreSQL: the very expression of its GIN
 * index, so that the planner can answer a containment test from it.
 */
function bigramsOf(eb: ExpressionBuilder<Database, 'messages' | 'mailboxes'>) {
  return sql`youju_bigrams(lower(${eb.ref('messages.subject')}), lower(${eb.ref('messages.from_name')}),
    lower(${eb.ref('messages.from_address')}), lower(${eb.ref('messages.text_body')}))`;
}

/**
 * PostgreSQL: a page of the messages of `messages` the pattern matches and how many match; the
 * planner narrows the rows with the pg_trgm indexes of migration 025 where they help. With `pair`
 * (text of two characters, lowercased, which pg_trgm cannot narrow) the rows are first those whose
 * pairs of characters (migration 056) hold it: exactly the messages LIKE matches, LIKE still
 * deciding.
 */
async function plannedPage(
  db: Queryable,
  messages: ScopedMessages,
  pattern: string,
  page: InboxPage,
  pair?: string,
): Promise<InboxResult> {
  const narrowed =
    pair === undefined
      ? messages
      : messages.where((eb) => sql<boolean>`${bigramsOf(eb)} @> array[${pair}]::text[]`);
  const matches = narrowed.where((eb) => textMatches(eb, pattern));
  const [rows, total] = await Promise.all([pageOfNewest(db, matches, page), countRows(matches)]);
  return { rows, total };
}

/**
 * Sizes of scopes (with their filters) counted lately, for scanNewest's estimated total: counting
 * an owner's million messages takes SQLite 40–70 ms, where the rest of a search of a common
 * word (the newest 500 messages read) takes about 2 ms. A size is kept `ttlMs` and is only ever a
 * factor of an estimate (the share of matches among the messages read, applied to the size), never
 * a page or an exact total, so mail that arrived or left meanwhile changes no row a user sees. One
 * per database: the mail service holds it.
 */
export interface ScopeSizes {
  get(key: string): number | undefined;
  set(key: string, size: number): void;
}

/** How long a counted scope size serves estimates. */
const SCOPE_SIZE_TTL = 30_000;
/** Scopes whose size is kept at most (each a few dozen bytes); the oldest goes first. */
const SCOPE_SIZE_ENTRIES = 1_000;

export function createScopeSizes(ttlMs = SCOPE_SIZE_TTL, entries = SCOPE_SIZE_ENTRIES): ScopeSizes {
  const sizes = new Map<string, { size: number; counted: number }>();
  return {
    get(key) {
      const entry = sizes.get(key);
      if (entry === undefined) return undefined;
      if (performance.now() - entry.counted <= ttlMs) return entry.size;
      sizes.delete(key);
      return undefined;
    },
    set(key, size) {
      sizes.delete(key);
      if (sizes.size >= entries) {
        const oldest = sizes.keys().next();
        if (!oldest.done) sizes.delete(oldest.value);
      }
      sizes.set(key, { size, counted: performance.now() });
    },
  };
}

/** A cache that keeps nothing: every size is counted. */
const UNCACHED_SIZES: ScopeSizes = { get: () => undefined, set: () => undefined };

/**
 * How many messages `scope` with `filters` holds, for scanNewest's estimated total, or a size
 * counted lately (`sizes`). SQLite counts them (index entries only). PostgreSQL counts up to
 * `countedScope` and beyond that takes its planner's estimate: counting a million rows takes it
 * over 100 ms.
 */
async function scopeSize(
  db: Queryable,
  engine: Engine,
  scope: MailboxScope,
  filters: InboxFilters,
  countedScope: number,
  sizes: ScopeSizes,
): Promise<number> {
  const key = JSON.stringify([engine, countedScope, scope, filters]);
  const known = sizes.get(key);
  if (known !== undefined) return known;
  const size = await countScope(db, engine, scope, filters, countedScope);
  sizes.set(key, size);
  return size;
}

async function countScope(
  db: Queryable,
  engine: Engine,
  scope: MailboxScope,
  filters: InboxFilters,
  countedScope: number,
): Promise<number> {
  if (engine === 'sqlite') return countInboxMessages(db, scope, filters);
  const messages = inboxMessages(db, scope, filters);
  const counted = await countUpTo(db, messages, countedScope);
  if (counted < countedScope) return counted;
  const { rows } = await sql<{ 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] }>`explain (format json)
    ${messages.select(sql.lit(1).as('one'))}`.execute(db);
  return Math.max(countedScope, Math.round(rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0));
}

/** What a scan that gave up had read: so many messages, of which so many matched. */
interface GaveUp {
  gaveUp: true;
  read: number;
  matched: number;
}

/** Messages a scan samples first to learn how fast the scope receives mail. */
const RATE_SAMPLE = 20;
/**
 * A scan's first slice reaches back as far as should hold this many messages (or ten pages'
 * worth); each next one as far as should bring what was read to four times as many.
 */
const FIRST_SLICE = 500;
const SLICE_GROWTH = 4;

/**
 * A scan of the messages of `scope` with `filters` for the text (`lowered`: lowercased), newest
 * first, in slices of time, each older than the last. A slice is a range of the mailbox indexes,
 * so none needs sorting (sorting the newest 5,000 ids of 12,000 takes SQLite 5 ms, reading a range
 * of them 0.1 ms). The slices reach back as FIRST_SLICE and SLICE_GROWTH say, as far as the newest
 * messages and then what was read suggest, until the page is full or every message was read.
 * Gives up rather than read more than `budget` messages beyond the first slice, returning how many
 * it read and how many of those matched (GaveUp).
 *
 * The page is exactly the one a scan of everything would give: every match in a slice is newer
 * than every match in the slices after it. `total` is exact when every message was read;
 * otherwise it is the share of matches among the messages read applied to the scope's size
 * (scopeSize; counting the matches would read every message: a two-character search across a
 * million messages took 750 ms), never below what the pages so far prove, plus one so that the
 * pager offers the next page.
 */
function scanNewest(
  db: Queryable,
  engine: Engine,
  scope: MailboxScope,
  filters: InboxFilters,
  lowered: string,
  page: InboxPage,
  tuning: SearchTuning,
  sizes: ScopeSizes,
): Promise<InboxResult>;
function scanNewest(
  db: Queryable,
  engine: Engine,
  scope: MailboxScope,
  filters: InboxFilters,
  lowered: string,
  page: InboxPage,
  tuning: SearchTuning,
  sizes: ScopeSizes,
  budget: number,
): Promise<InboxResult | GaveUp>;
async function scanNewest(
  db: Queryable,
  engine: Engine,
  scope: MailboxScope,
  filters: InboxFilters,
  lowered: string,
  page: InboxPage,
  tuning: SearchTuning,
  sizes: ScopeSizes,
  budget = Number.POSITIVE_INFINITY,
): Promise<InboxResult | GaveUp> {
  const messages = inboxMessages(db, scope, filters);
  const { countedScope = COUNTED_SCOPE } = tuning;
  const wanted = page.offset + page.limit;
  // Slices of all mail or of an owner's are counted from an index alone (countInboxMessages).
  const countedFromIndex = scope.kind !== 'mailbox' && filters.address === undefined;
  const sample = await newestFirst(messages).select('messages.received_at').limit(RATE_SAMPLE).execute();
  const newest = sample[0]?.received_at ?? 0;
  const sampledSpan = newest - (sample.at(-1)?.received_at ?? newest);
  let target = Math.max(FIRST_SLICE, wanted * 10);
  // How far back the slices reach, in milliseconds; null when the scope is smaller than the sample.
  let reach = sample.length < RATE_SAMPLE ? null : Math.max(1, (sampledSpan * target) / sample.length);
  let sliceEnd: number | null = null;
  let read = 0;
  const found: number[] = [];
  for (;;) {
    const since = reach === null ? null : Math.floor(newest - reach);
    const range = { since, before: sliceEnd };
    const slice = inboxMessages(db, scope, filters, range);
    if (countedFromIndex) {
      const held = await countInboxMessages(db, scope, filters, range);
      // The first slice is read whatever it holds: its reach was only an estimate.
      if (read > 0 && read + held > budget) return { gaveUp: true, read, matched: found.length };
      read += held;
      const matches = await newestFirst(slice.where((eb) => textContains(eb, engine, lowered)))
        .select('messages.id')
        .execute();
      found.push(...matches.map((match) => match.id));
    } else {
      // One address: its index on received_at holds no folder, so a count of a slice read every row
      // of it, and the search then read them again (SQLite, "发票" in an address of 5,000 messages
      // of a million that holds none: 4 counts, 106 ms of 170 on a loaded machine). Each message
      // of the slice comes with whether it matches instead, from one reading; past the first
      // slice a budget is checked first by counting no further than it.
      const left = budget - read;
      if (
        read > 0 &&
        Number.isFinite(budget) &&
        (left < 0 || (await countUpTo(db, slice, left + 1)) > left)
      ) {
        return { gaveUp: true, read, matched: found.length };
      }
      const rows = await newestFirst(slice)
        .select((eb) => ['messages.id', textContains(eb, engine, lowered).as('hit')])
        .execute();
      read += rows.length;
      for (const row of rows) if (row.hit) found.push(row.id);
    }
    const older =
      since !== null &&
      (
        await inboxMessages(db, scope, filters, { since: null, before: since })
          .select('messages.id')
          .limit(1)
          .execute()
      ).length > 0;
    if (!older || found.length >= wanted) {
      const rows = await pageAmong(db, found, page);
      if (!older) return { rows, total: found.length };
      const estimate = Math.round(
        (found.length / read) * (await scopeSize(db, engine, scope, filters, countedScope, sizes)),
      );
      return { rows, total: Math.max(estimate, wanted + 1) };
    }
    // The next slice reaches back as far as the time read so far suggests holds `target` messages.
    sliceEnd = since;
    target *= SLICE_GROWTH;
    reach = Math.max(2 * (reach ?? 0), ((reach ?? 0) * target) / Math.max(1, read));
  }
}

/**
 * getInbox's text search (`q`) over the messages of `scope` with `filters`: the page is exactly the
 * one a plain scan of every message would give (see SearchTuning for how it runs, and scanNewest
 * for when `total` is an estimate).
 */
export async function searchInboxPage(
  db: Queryable,
  engine: Engine,
  scope: MailboxScope,
  filters: InboxFilters,
  text: string,
  page: InboxPage,
  tuning: SearchTuning = DEFAULT_SEARCH_TUNING,
  sizes: ScopeSizes = UNCACHED_SIZES,
): Promise<InboxResult> {
  const pattern = likePattern(text);
  const lowered = text.toLowerCase();
  const length = [...lowered].length;
  if (length >= BIGRAM) {
    // A rare text (a few messages in all the mail, or none) is answered from its candidates
    // alone: the scan below would read the newest smallScope messages first, and a text found
    // nowhere then went on to read them all (two characters) or learn it from the index anyway.
    const probeCap = Math.min(tuning.smallScope, tuning.candidateLimit);
    if (engine === 'sqlite' && probeCap > 0) {
      const probe = await sqliteCandidates(db, lowered, probeCap);
      if (probe.ids.length < probeCap) {
        return candidatePage(db, inboxMessages(db, scope, filters), pattern, probe, page);
      }
    }
    const scanned =
      tuning.smallScope > 0
        ? await scanNewest(db, engine, scope, filters, lowered, page, tuning, sizes, tuning.smallScope)
        : null;
    if (scanned && !('gaveUp' in scanned)) return scanned;
    const messages = inboxMessages(db, scope, filters);
    if (engine === 'postgres') {
      return length >= TRIGRAM
        ? plannedPage(db, messages, pattern, page)
        : plannedPage(db, messages, pattern, page, lowered);
    }
    const candidates = await planMessageTextSearch(db, scope, filters, lowered, tuning, sizes, scanned);
    if (candidates) return candidatePage(db, messages, pattern, candidates, page);
    // The newest messages held less than a page of matches: the scope likely holds few, and
    // looking its ids up among all the candidates beats reading each of its messages.
    if (scanned && 'gaveUp' in scanned && scanned.matched < page.limit) {
      return intersectedPage(db, messages, pattern, lowered, page);
    }
  }
  return scanNewest(db, engine, scope, filters, lowered, page, tuning, sizes);
}

/**
 * SQLite: the FTS5 candidates of `lowered` (trigrams for three characters or more, the pairs of
 * migration 056 for two) when the index is worth reading for the scope (SearchTuning: fewer than
 * `candidateLimit`, at most one for every `scanToIndexRatio` of its messages), else undefined: then
 * the scan goes on. No more candidates are read than could be worth it: a common pair has 100,000
 * in a million messages, where an address of 5,000 messages is worth at most 1,250 (reading
 * 10,000 to learn that took 5 ms). The size may be one counted lately (`sizes`): it only chooses
 * the plan, and either plan gives the same page.
 */
async function planMessageTextSearch(
  db: Queryable,
  scope: MailboxScope,
  filters: InboxFilters,
  lowered: string,
  tuning: SearchTuning,
  sizes: ScopeSizes,
  scanned: GaveUp | null,
): Promise<TrigramCandidates | undefined> {
  const { countedScope = COUNTED_SCOPE } = tuning;
  const size =
    tuning.scanToIndexRatio > 0 || scanned
      ? await scopeSize(db, 'sqlite', scope, filters, countedScope, sizes)
      : 0;
  const worthReading =
    tuning.scanToIndexRatio > 0 ? Math.floor(size / tuning.scanToIndexRatio) + 1 : Number.POSITIVE_INFINITY;
  const cap = Math.min(tuning.candidateLimit, worthReading);
  // Every match in the scope is a candidate: when the newest messages say the scope holds as many
  // matches as the cap, the index would not be taken ("发票" page 5 of an owner's million messages,
  // 10% of them: 10,000 candidates read for nothing, 3.6 ms).
  if (scanned && scanned.read > 0 && (scanned.matched / scanned.read) * size >= cap) return undefined;
  const candidates = await sqliteCandidates(db, lowered, cap);
  return candidates.ids.length < cap ? candidates : undefined;
}

// ---- folders as IMAP sees them (modules/mail/folder-service.ts) ----

/** What an IMAP session keeps of each message of the selected folder. */
export type FolderMessageRow = Pick<
  MessageRow,
  'id' | 'uid' | 'read' | 'starred' | 'flags' | 'keywords' | 'modseq' | 'received_at' | 'size' | 'raw_id'
>;

const FOLDER_MESSAGE_COLUMNS = [
  'id',
  'uid',
  'read',
  'starred',
  'flags',
  'keywords',
  'modseq',
  'received_at',
  'size',
  'raw_id',
] as const;

/** The messages of one folder of one mailbox, in UID order (the index on mailbox, folder, uid). */
export async function listFolderMessages(
  db: Queryable,
  mailboxId: number,
  folder: FolderName,
): Promise<FolderMessageRow[]> {
  return db
    .selectFrom('messages')
    .select(FOLDER_MESSAGE_COLUMNS)
    .where('mailbox_id', '=', mailboxId)
    .where('folder', '=', folder)
    .orderBy('uid')
    .execute();
}

/**
 * Messages, unseen messages, their total size and those marked \Deleted (bit 2 of `flags`) per
 * folder of a mailbox (LIST-STATUS, STATUS; SIZE and DELETED are RFC 9051 section 6.3.11).
 */
export async function countFolderMessages(
  db: Queryable,
  mailboxId: number,
): Promise<{ folder: FolderName; messages: number; unseen: number; size: number; deleted: number }[]> {
  const rows = await db
    .selectFrom('messages')
    .select((eb) => [
      'folder',
      eb.fn.countAll<number>().as('messages'),
      eb.fn.sum<number>(eb.case().when('read', '=', 0).then(1).else(0).end()).as('unseen'),
      eb.fn.sum<number>('size').as('size'),
      sql<number>`sum(case when (flags & 2) <> 0 then 1 else 0 end)`.as('deleted'),
    ])
    .where('mailbox_id', '=', mailboxId)
    .groupBy('folder')
    .execute();
  return rows.map((row) => ({
    folder: row.folder,
    messages: Number(row.messages),
    unseen: Number(row.unseen ?? 0),
    size: Number(row.size ?? 0),
    deleted: Number(row.deleted ?? 0),
  }));
}

/** The text columns SEARCH reads, of messages `ids` of one mailbox. */
export async function findMessageSearchFields(
  db: Queryable,
  mailboxId: number,
  ids: number[],
): Promise<
  Pick<
    MessageRow,
    | 'id'
    | 'subject'
    | 'from_name'
    | 'from_address'
    | 'to_json'
    | 'cc_json'
    | 'text_body'
    | 'sent_at'
    | 'message_id'
  >[]
> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('messages')
    .select([
      'id',
      'subject',
      'from_name',
      'from_address',
      'to_json',
      'cc_json',
      'text_body',
      'sent_at',
      'message_id',
    ])
    .where('mailbox_id', '=', mailboxId)
    .where('id', 'in', ids)
    .execute();
}

/** Whole rows of messages `ids` of one mailbox (to copy them). */
export async function findMailboxMessages(
  db: Queryable,
  mailboxId: number,
  ids: number[],
): Promise<MessageRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('messages')
    .selectAll()
    .where('mailbox_id', '=', mailboxId)
    .where('id', 'in', ids)
    .orderBy('uid')
    .execute();
}

/** One folder's messages within `scope`, newest first, with their recipients (the web's drafts). */
export async function listScopedFolderPage(
  db: Queryable,
  scope: MailboxScope,
  folder: FolderName,
  page: { limit: number; offset: number },
): Promise<{ rows: (MessageItemRow & { to_json: string })[]; total: number }> {
  const base = scopedMessages(db, scope).where('messages.folder', '=', folder);
  const [rows, total] = await Promise.all([
    base
      .select([...ITEM_COLUMNS, 'messages.to_json'])
      .orderBy('messages.received_at', 'desc')
      .orderBy('messages.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirst(),
  ]);
  return { rows, total: Number(total?.count ?? 0) };
}

/** Whether any message was ever received in `scope` (the first-run checklist): one indexed probe. */
export async function hasReceivedMessages(db: Queryable, scope: MailboxScope): Promise<boolean> {
  const row = await scopedMessages(db, scope).select('messages.id').limit(1).executeTakeFirst();
  return row !== undefined;
}
