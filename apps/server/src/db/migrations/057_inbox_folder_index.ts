import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';

/**
 * getInbox lists one folder (`inbox` unless asked for `junk`, migration 050), so its queries ask
 * for `mailbox_id = ? and folder = ?` newest first, with the unread and starred filters. The
 * indexes of migration 047 have no folder, so SQLite took the (mailbox_id, folder, uid) index of
 * migration 050 instead, read every row of the scope for its received_at and sorted them: 160 ms
 * for page 1 of an owner with 12,000 messages among 112,000 (1.4 ms with this index), 106 ms for
 * page 50 (2.6 ms). With read and starred in it too, the unread filter and the per-mailbox unread
 * counts of the folder are read from it alone (an index on folder and received_at only took those
 * plans from the read index and read every row: 238 ms for the owner's unread counts). With the id
 * (on PostgreSQL; SQLite's indexes end in the rowid) a page's ids come from the index alone.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createIndex('messages_mailbox_folder_flags')
    .on('messages')
    .columns([
      'mailbox_id',
      'folder',
      'read',
      'starred',
      'received_at',
      ...(engine === 'postgres' ? ['id'] : []),
    ])
    .execute();
}
