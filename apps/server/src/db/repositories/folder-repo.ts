import {
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type SqlBool,
  sql,
  type Transaction,
} from 'kysely';
import { runCompiled } from '../compiled-query.js';
import { type Database, FOLDER_NAMES, type FolderName, type MailFolderRow } from '../schema.js';
import type { Queryable } from './queryable.js';

/**
 * The folder rows of `mail_folders` (migration 050): UIDVALIDITY, the next UID and the highest
 * modification sequence of each mailbox's folders. Message UIDs come only from `reserveUids`, and
 * every change to a folder's messages goes through `advanceModseq`, so the row alone tells an IMAP
 * session whether anything changed (RFC 7162 section 3.1.1).
 */

/** UIDVALIDITY of a folder made now: epoch seconds, a positive 32-bit number (RFC 3501 2.3.1.1). */
function newUidValidity(now: number): number {
  return Math.max(1, Math.floor(now / 1000) % 0x1_0000_0000);
}

/**
 * Creates the folders a mailbox lacks (insert or ignore): the first UID of each follows the
 * highest one already in it, so rows written straight into `messages` (benchmarks, older data)
 * keep their UIDs.
 */
export async function ensureFolders(db: Queryable, mailboxId: number): Promise<void> {
  const now = Date.now();
  const highest = await db
    .selectFrom('mail_folders')
    .select('name')
    .where('mailbox_id', '=', mailboxId)
    .execute();
  if (highest.length === FOLDER_NAMES.length) return;
  const present = new Set(highest.map((row) => row.name));
  const missing = FOLDER_NAMES.filter((name) => !present.has(name));
  await db
    .insertInto('mail_folders')
    .values(
      missing.map((name) => ({
        mailbox_id: mailboxId,
        name,
        uidvalidity: newUidValidity(now),
        // The highest UID already stored in the folder, plus one (a scalar subquery on the index
        // (mailbox_id, folder, uid)).
        uidnext: sql<number>`(select coalesce(max(uid), 0) + 1 from messages where mailbox_id = ${mailboxId} and folder = ${name})`,
        highest_modseq: 1,
        created_at: now,
      })),
    )
    .onConflict((conflict) => conflict.columns(['mailbox_id', 'name']).doNothing())
    .execute();
}

/** The folders of a mailbox (created when missing), in FOLDER_NAMES order. */
export async function listFolders(db: Queryable, mailboxId: number): Promise<MailFolderRow[]> {
  await ensureFolders(db, mailboxId);
  const rows = await db.selectFrom('mail_folders').selectAll().where('mailbox_id', '=', mailboxId).execute();
  return FOLDER_NAMES.map((name) => rows.find((row) => row.name === name)).filter(
    (row): row is MailFolderRow => row !== undefined,
  );
}

/** One folder of a mailbox, or undefined (the mailbox is gone). */
export async function findFolder(
  db: Queryable,
  mailboxId: number,
  name: FolderName,
): Promise<MailFolderRow | undefined> {
  return db
    .selectFrom('mail_folders')
    .selectAll()
    .where('mailbox_id', '=', mailboxId)
    .where('name', '=', name)
    .executeTakeFirst();
}

/** The folder rows `ids` (those still there): what IDLE sessions poll, in one statement. */
export async function findFoldersByIds(db: Queryable, ids: number[]): Promise<MailFolderRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('mail_folders').selectAll().where('id', 'in', ids).execute();
}

/**
 * Takes `count` UIDs of a folder for new messages and raises its modseq, in the caller's
 * transaction. One statement per folder and batch: on PostgreSQL the row stays locked until the
 * commit, so messages of one folder commit in UID order whichever process stores them.
 */
export async function reserveUids(
  trx: Queryable,
  mailboxId: number,
  name: FolderName,
  count: number,
): Promise<{ firstUid: number; modseq: number }> {
  // Every stored message: compiled once (compiled-query.ts).
  const take = async () =>
    (
      await runCompiled(trx, 'reserveUids', '', [count, mailboxId, name], ([step, mailbox, folder]) =>
        trx
          .updateTable('mail_folders')
          .set((eb) => ({
            uidnext: eb('uidnext', '+', step),
            highest_modseq: eb('highest_modseq', '+', 1),
          }))
          .where('mailbox_id', '=', mailbox)
          .where('name', '=', folder)
          .returning(['uidnext', 'highest_modseq']),
      )
    ).rows[0];
  let row = await take();
  if (!row) {
    await ensureFolders(trx, mailboxId);
    row = await take();
  }
  if (!row) throw new Error(`mailbox ${mailboxId} has no folder ${name}`);
  return { firstUid: Number(row.uidnext) - count, modseq: Number(row.highest_modseq) };
}

/**
 * Raises the modseq of a folder for a change to its messages (flags, deletion) and returns it; the
 * caller writes it on the changed messages in the same transaction. Undefined when the folder is
 * not there (its mailbox is being deleted).
 */
export async function advanceModseq(
  trx: Queryable,
  mailboxId: number,
  name: FolderName,
): Promise<number | undefined> {
  const row = await trx
    .updateTable('mail_folders')
    .set((eb) => ({ highest_modseq: eb('highest_modseq', '+', 1) }))
    .where('mailbox_id', '=', mailboxId)
    .where('name', '=', name)
    .returning('highest_modseq')
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.highest_modseq);
}

/**
 * Raises, in one statement, the modseq of every folder that `where` picks (the caller's condition
 * on `mail_folders`, e.g. "holds an unread message of these mailboxes"); for a change to many
 * messages across mailboxes at once (RFC 7162 section 3.1.1, as `advanceModseq`).
 */
export async function advanceModseqOfFolders(
  trx: Queryable,
  where: (eb: ExpressionBuilder<Database, 'mail_folders'>) => Expression<SqlBool>,
): Promise<void> {
  await trx
    .updateTable('mail_folders')
    .set((eb) => ({ highest_modseq: eb('highest_modseq', '+', 1) }))
    .where(where)
    .execute();
}

/** The modseq of the folder of the message row of the outer query (a scalar subquery). */
export function folderModseqOfMessage(eb: ExpressionBuilder<Database, 'messages'>) {
  return eb
    .selectFrom('mail_folders')
    .select('mail_folders.highest_modseq')
    .whereRef('mail_folders.mailbox_id', '=', 'messages.mailbox_id')
    .whereRef('mail_folders.name', '=', 'messages.folder');
}

/** Runs `work` in `db`'s open transaction, or in a new one. */
export async function withTransaction<T>(
  db: Queryable,
  work: (trx: Transaction<Database> | Kysely<Database>) => Promise<T>,
): Promise<T> {
  if (db.isTransaction) return work(db);
  return db.transaction().execute((trx) => work(trx));
}
