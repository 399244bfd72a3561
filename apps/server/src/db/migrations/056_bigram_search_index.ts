import { type Kysely, sql } from 'kysely';
import type { Engine } from '../database.js';
import { bigramDocument } from '../search-bigrams.js';
import { SEARCHED_COLUMNS } from './025_mail_search.js';

/**
 * An index for searches of two characters (发票, 邮编, "qz"), which the trigram indexes of migration
 * 025 cannot answer: such a search read every message of the caller that did not fill the page
 * (a text found nowhere: all 12,000 of a heavy owner, all of a million-message store in 750 ms).
 * The index holds, per message, the distinct pairs of adjacent characters of each searched column
 * (subject, sender name, sender address, body text) as the search's lower() leaves it, so a
 * two-character search is exact from it: no pair, no match, without reading a message.
 *
 * SQLite: `messages_bigrams`, a contentless FTS5 table (`ascii` tokenizer, no positions) whose one
 * column holds the pairs as tokens (db/search-bigrams.ts). No SQL function can compute the pairs,
 * so they are written by the store worker's batch that fills the trigram index (`indexNewMessages`
 * in db/search-index.ts, behind the same cursor of migration 046), and here for the mail already
 * stored, in batches of BACKFILL_BATCH messages. Deletes follow by trigger, as for the trigram
 * index. An update of a searched column (nothing in Youju does that today) takes the message out
 * of the index and queues it in `search_bigram_pending`, which the next batch indexes anew; until
 * then the search treats it as a candidate, like the messages after the cursor.
 *
 * PostgreSQL: a GIN index on `youju_bigrams(lower(subject), lower(from_name),
 * lower(from_address), lower(text_body))`, an immutable SQL function giving the distinct pairs as
 * a text[]; PostgreSQL keeps it on every insert, update and delete, and CREATE INDEX fills it.
 * The pairs come from two regexp passes (pairs at odd and at even positions), which run in C:
 * substr() per position is quadratic on multibyte text (590 ms for a 10 KiB body). Its cost is
 * declared high so that the planner reaches it through the index instead of calling it per row.
 */
export const BACKFILL_BATCH = 1000;

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'postgres') await upPostgres(db);
  else await upSqlite(db);
}

async function upSqlite(db: Kysely<unknown>): Promise<void> {
  const columns = sql.join(SEARCHED_COLUMNS.map((column) => sql.ref(column)));
  const indexed = sql`(select last_message_id from search_index_cursor)`;
  // Kysely runs SQLite migrations outside a transaction; this one takes its own (as 025 does), so
  // the table, its triggers and its contents appear whole or not at all.
  await db.transaction().execute(async (trx) => {
    for (const trigger of ['messages_bigrams_update', 'messages_bigrams_delete']) {
      await sql`drop trigger if exists ${sql.id(trigger)}`.execute(trx);
    }
    await sql`drop table if exists messages_bigrams`.execute(trx);
    await sql`drop table if exists search_bigram_pending`.execute(trx);
    await sql`create virtual table messages_bigrams using fts5(grams, tokenize = 'ascii', detail = none, content = '', contentless_delete = 1)`.execute(
      trx,
    );
    await sql`create table search_bigram_pending (id integer primary key)`.execute(trx);
    // Every message the trigram index holds (up to the cursor); the store worker adds the rest.
    let after = 0;
    for (;;) {
      const { rows } = await sql<{
        id: number;
        subject: string;
        from_name: string;
        from_address: string;
        text_body: string | null;
      }>`select id, ${columns} from messages where id > ${after} and id <= ${indexed}
        order by id limit ${BACKFILL_BATCH}`.execute(trx);
      const last = rows.at(-1);
      if (!last) break;
      const values = rows.map(
        (row) =>
          sql`(${row.id}, ${bigramDocument([row.subject, row.from_name, row.from_address, row.text_body])})`,
      );
      await sql`insert into messages_bigrams (rowid, grams) values ${sql.join(values)}`.execute(trx);
      after = last.id;
    }
    await sql`insert into messages_bigrams (messages_bigrams) values ('optimize')`.execute(trx);
    await sql`create trigger messages_bigrams_update after update of id, ${columns} on messages
      when old.id <= ${indexed} begin
      delete from messages_bigrams where rowid = old.id;
      insert or ignore into search_bigram_pending (id) values (new.id);
    end`.execute(trx);
    await sql`create trigger messages_bigrams_delete after delete on messages
      when old.id <= ${indexed} begin
      delete from messages_bigrams where rowid = old.id;
      delete from search_bigram_pending where id = old.id;
    end`.execute(trx);
  });
}

async function upPostgres(db: Kysely<unknown>): Promise<void> {
  // Each element of `parts` is one column: pairs never span two of them. '.' matches any
  // character, newline included (PostgreSQL's default regexp flags).
  await sql`create or replace function youju_bigrams(variadic parts text[]) returns text[]
    language sql immutable parallel safe cost 1000 as $$
      select coalesce(pg_catalog.array_agg(distinct pair[1]), '{}')
      from pg_catalog.unnest(parts) part,
        lateral (select pg_catalog.regexp_matches(part, '(..)', 'g')
          union all select pg_catalog.regexp_matches(pg_catalog.substr(part, 2), '(..)', 'g')) pairs(pair)
    $$`.execute(db);
  await sql`create index messages_search_bigrams on messages using gin
    (youju_bigrams(lower(subject), lower(from_name), lower(from_address), lower(text_body)))`.execute(db);
}
