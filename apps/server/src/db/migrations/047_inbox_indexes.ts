import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';

/**
 * getInbox's orderings, whole in the indexes: a page is newest first with the id breaking ties
 * (`received_at desc, id desc`), and the unread and starred filters are read per mailbox. With the
 * id in each index a page's ids, and a count, come from the index alone, without reading a message
 * row; only the page's own rows are read (`listInboxPage` in db/repositories/message-repo.ts).
 *
 * The read and starred indexes replace the two-column ones of migration 002, and on PostgreSQL the
 * received indexes gain the id: as many indexes as before, so storing a message costs about the
 * same. SQLite keeps its received indexes: every SQLite index already ends in the rowid, which is
 * `messages.id`.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const withId = engine === 'postgres' ? ['id'] : [];
  const replace = async (name: string, columns: string[]) => {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on('messages').columns(columns).execute();
  };
  await replace('messages_mailbox_read', ['mailbox_id', 'read', 'received_at', ...withId]);
  await replace('messages_mailbox_starred', ['mailbox_id', 'starred', 'received_at', ...withId]);
  if (engine === 'postgres') {
    await replace('messages_mailbox_received', ['mailbox_id', 'received_at', 'id']);
    await replace('messages_received', ['received_at', 'id']);
  }
}
