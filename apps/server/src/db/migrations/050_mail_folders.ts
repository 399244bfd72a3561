import { type Kysely, sql } from 'kysely';
import type { Engine } from '../database.js';
import { idColumn, timeType } from './column-types.js';

/**
 * Folders and IMAP UIDs (RFC 3501 section 2.3.1.1, RFC 7162 for the modification sequences).
 *
 * `messages` gains the folder it is in (`inbox`, `junk`, `sent`, `drafts`, `trash`; mail marked
 * spam before starts in `junk`), its UID in that folder, its modification sequence, the IMAP flags
 * the web has no column for (bits: 1 \Answered, 2 \Deleted, 4 \Draft; \Seen stays `read` and
 * \Flagged `starred`) and its keywords (space-separated). Existing rows keep their id as UID: ids
 * only grow, so the UIDs of a folder ascend as its messages arrived.
 *
 * `mail_folders` holds one row per mailbox and folder: UIDVALIDITY (fixed for the folder's life),
 * the next UID and the highest modification sequence. Every insert takes its UIDs from this row in
 * its own transaction (an UPDATE … RETURNING: on PostgreSQL the row lock makes UID order commit
 * order), and every change to a message of the folder raises highest_modseq, so an IMAP session
 * learns of changes by reading one row. Rows are created here for the mail already stored and
 * later on first use (insert or ignore).
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const time = timeType(engine);
  const id = idColumn(engine);

  await db.schema
    .alterTable('messages')
    .addColumn('folder', 'text', (c) => c.notNull().defaultTo('inbox'))
    .execute();
  await db.schema
    .alterTable('messages')
    .addColumn('uid', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('messages')
    .addColumn('modseq', time, (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('messages')
    .addColumn('flags', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('messages')
    .addColumn('keywords', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`update messages set uid = id, folder = case when spam = 1 then 'junk' else 'inbox' end`.execute(
    db,
  );
  // A UID comes from the folder row, never from the default (PostgreSQL can drop it; an SQLite
  // column keeps its default, which no insert path relies on).
  if (engine === 'postgres') await sql`alter table messages alter column uid drop default`.execute(db);
  await db.schema
    .createIndex('messages_mailbox_folder_uid')
    .on('messages')
    .columns(['mailbox_id', 'folder', 'uid'])
    .unique()
    .execute();

  await db.schema
    .createTable('mail_folders')
    .addColumn('id', id.type, id.build)
    .addColumn('mailbox_id', 'integer', (c) => c.notNull().references('mailboxes.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('uidvalidity', time, (c) => c.notNull())
    .addColumn('uidnext', time, (c) => c.notNull())
    .addColumn('highest_modseq', time, (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addUniqueConstraint('mail_folders_mailbox_name', ['mailbox_id', 'name'])
    .execute();

  const now = Date.now();
  const uidvalidity = Math.max(1, Math.floor(now / 1000) % 0x1_0000_0000);
  await sql`insert into mail_folders (mailbox_id, name, uidvalidity, uidnext, highest_modseq, created_at)
    select mailbox_id, folder, ${uidvalidity}, max(uid) + 1, 1, ${now} from messages
    group by mailbox_id, folder`.execute(db);
}
