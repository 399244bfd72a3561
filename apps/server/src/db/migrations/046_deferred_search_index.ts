import { type Kysely, sql } from 'kysely';
import type { Engine } from '../database.js';
import { SEARCHED_COLUMNS } from './025_mail_search.js';

/**
 * SQLite: new messages enter the FTS5 search index (`messages_search`, migration 025) in batches
 * shortly after they are stored, instead of by a trigger inside the storing transaction.
 *
 * The trigger made every stored message pay for its index entry in the transaction that had to
 * commit before "250": FTS5 flushes what it collected at every savepoint and commit, so each message
 * (in its own savepoint of a group commit) wrote its own index segment, and merging those segments
 * was most of the cost of storing a message. Now `search_index_cursor` records the newest message
 * the index holds, and `indexNewMessages` (db/search-index.ts, run by the store worker a few times
 * a second) indexes the messages after it in one statement per batch. Message ids only grow
 * (AUTOINCREMENT), and one writer at a time can insert, so "every id up to the cursor" is exact.
 * Updates and deletes of messages already indexed still follow by trigger; those not yet indexed
 * need nothing (the batch reads the row as it is then, or no longer finds it).
 *
 * PostgreSQL: nothing; its pg_trgm GIN indexes collect new entries in a pending list already.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'sqlite') return;
  const columns = sql.join(SEARCHED_COLUMNS.map((column) => sql.ref(column)));
  const newValues = sql.join(SEARCHED_COLUMNS.map((column) => sql.ref(`new.${column}`)));
  const indexed = sql`(select last_message_id from search_index_cursor)`;
  await db.transaction().execute(async (trx) => {
    await sql`create table search_index_cursor (
      id integer primary key check (id = 1),
      last_message_id integer not null
    )`.execute(trx);
    // Every message there is now was indexed by the trigger.
    await sql`insert into search_index_cursor (id, last_message_id)
      select 1, coalesce(max(id), 0) from messages`.execute(trx);
    for (const trigger of ['messages_search_insert', 'messages_search_update', 'messages_search_delete']) {
      await sql`drop trigger if exists ${sql.id(trigger)}`.execute(trx);
    }
    await sql`create trigger messages_search_update after update of id, ${columns} on messages
      when old.id <= ${indexed} begin
      delete from messages_search where rowid = old.id;
      insert into messages_search (rowid, ${columns}) values (new.id, ${newValues});
    end`.execute(trx);
    await sql`create trigger messages_search_delete after delete on messages
      when old.id <= ${indexed} begin
      delete from messages_search where rowid = old.id;
    end`.execute(trx);
  });
}
