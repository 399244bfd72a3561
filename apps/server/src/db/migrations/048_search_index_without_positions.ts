import { type Kysely, sql } from 'kysely';
import type { Engine } from '../database.js';
import { SEARCHED_COLUMNS } from './025_mail_search.js';

/**
 * SQLite: the FTS5 search index (`messages_search`, migrations 025 and 046) keeps which messages
 * hold each trigram but no longer where (`detail = none`). The positions were 90 % of the index (a
 * 10 KiB body: 19.8 KB of index with them, 1.2 KB without) and most of the cost of indexing new
 * mail, all of it written and fsynced by the same single writer that stores the mail.
 *
 * Without positions FTS5 cannot match a phrase, so a search asks for messages holding every
 * trigram of the text (`trigramQuery` in db/repositories/message-repo.ts): a superset of the
 * messages that contain the text, which the search already narrows with LIKE, as it did for the
 * case folding the index and LIKE do differently.
 *
 * The index is rebuilt here from the messages it held (every id up to the cursor of migration 046;
 * the store worker indexes the rest as usual), in the migration's own transaction like 025's.
 * PostgreSQL: nothing.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'sqlite') return;
  const columns = sql.join(SEARCHED_COLUMNS.map((column) => sql.ref(column)));
  const newValues = sql.join(SEARCHED_COLUMNS.map((column) => sql.ref(`new.${column}`)));
  const indexed = sql`(select last_message_id from search_index_cursor)`;
  await db.transaction().execute(async (trx) => {
    for (const trigger of ['messages_search_update', 'messages_search_delete']) {
      await sql`drop trigger if exists ${sql.id(trigger)}`.execute(trx);
    }
    await sql`drop table if exists messages_search`.execute(trx);
    await sql`create virtual table messages_search using fts5(${columns}, tokenize = 'trigram', detail = none, content = '', contentless_delete = 1)`.execute(
      trx,
    );
    await sql`insert into messages_search (rowid, ${columns})
      select id, ${columns} from messages where id <= ${indexed}`.execute(trx);
    await sql`insert into messages_search (messages_search) values ('optimize')`.execute(trx);
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
