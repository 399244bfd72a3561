import { type Kysely, sql } from 'kysely';
import type { Engine } from './database.js';
import { SEARCHED_COLUMNS } from './migrations/025_mail_search.js';
import type { Database } from './schema.js';
import { bigramDocument } from './search-bigrams.js';

/**
 * What to tell the operator when migration 025 could not index mail search: on PostgreSQL it goes
 * on without the pg_trgm indexes where the database refused CREATE EXTENSION. Search is then still
 * correct, only slower on large stores. Null when the indexes are there (always on SQLite).
 */
export async function searchIndexWarning(db: Kysely<unknown>, engine: Engine): Promise<string | null> {
  if (engine !== 'postgres') return null;
  const { rows } = await sql`select 1 from pg_indexes
    where tablename = 'messages' and indexname = 'messages_search_subject'`.execute(db);
  if (rows.length > 0) return null;
  return (
    '邮件搜索没有索引：数据库未安装 pg_trgm 扩展（迁移 025 无权创建）。搜索结果仍然正确，但邮件多时会变慢。' +
    '请由数据库管理员执行 CREATE EXTENSION pg_trgm 并建立索引，步骤见 apps/server/src/db/README.md。'
  );
}

/** Messages one indexing transaction takes at most (10 KiB bodies: some tens of milliseconds). */
export const INDEX_BATCH = 200;

/**
 * While mail streams in (a delivery in progress, or one ended this recently), the store worker's
 * indexing waits, so that a burst is stored and acknowledged at the pace of storing alone: indexing
 * is about a tenth of what a message costs. Search stays right meanwhile, since it reads the
 * messages the index has not taken yet directly (message-repo.ts), only more slowly the longer the
 * backlog.
 */
export const INDEX_QUIET_MS = 100;
/** ...but never longer than this after the oldest message waiting: a steady stream is indexed too. */
export const INDEX_DEFER_MAX_MS = 10_000;

/** Whether the indexing pass waits for now (see INDEX_QUIET_MS). */
export function indexingWaits(state: {
  /** deliveries in progress */
  storing: number;
  /** when the last delivery ended (ms) */
  lastStoredAt: number;
  /** when the oldest message stored and not yet indexed was stored, or null */
  unindexedSince: number | null;
  now: number;
}): boolean {
  const streaming = state.storing > 0 || state.now - state.lastStoredAt < INDEX_QUIET_MS;
  return streaming && state.unindexedSince !== null && state.now - state.unindexedSince < INDEX_DEFER_MAX_MS;
}

/** A message's searched columns, as the two-character index reads them. */
interface SearchedRow {
  id: number;
  subject: string;
  from_name: string;
  from_address: string;
  text_body: string | null;
}

/** The two-character index's entries of `rows` (migration 056), in one statement. */
async function insertBigrams(trx: Kysely<Database>, rows: SearchedRow[]): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map(
    (row) =>
      sql`(${row.id}, ${bigramDocument([row.subject, row.from_name, row.from_address, row.text_body])})`,
  );
  await sql`insert into messages_bigrams (rowid, grams) values ${sql.join(values)}`.execute(trx);
}

/**
 * SQLite: adds the messages stored since the last call to the FTS5 search indexes (trigrams,
 * migration 046; pairs of characters, migration 056), at most `limit` of them, in one
 * transaction; returns how many. The cursor moves in the same transaction, so a crash in between
 * indexes the same messages again, never skips any. The pairs of messages whose searched columns
 * changed (`search_bigram_pending`) are written anew in the same transaction.
 */
export async function indexNewMessages(db: Kysely<Database>, limit = INDEX_BATCH): Promise<number> {
  const columns = sql.join(SEARCHED_COLUMNS.map((column) => sql.ref(column)));
  return db.transaction().execute(async (trx) => {
    const pending = await sql<SearchedRow>`select id, ${columns} from messages
      where id in (select id from search_bigram_pending order by id limit ${limit})`.execute(trx);
    if (pending.rows.length > 0) {
      const ids = pending.rows.map((row) => row.id);
      for (const id of ids) await sql`delete from messages_bigrams where rowid = ${id}`.execute(trx);
      await insertBigrams(trx, pending.rows);
      await sql`delete from search_bigram_pending where id in (${sql.join(ids)})`.execute(trx);
    }
    const { rows } = await sql<SearchedRow>`select id, ${columns} from messages
      where id > (select last_message_id from search_index_cursor) order by id limit ${limit}`.execute(trx);
    const last = rows.at(-1)?.id;
    if (last === undefined) return pending.rows.length;
    await sql`insert into messages_search (rowid, ${columns})
      select id, ${columns} from messages
      where id > (select last_message_id from search_index_cursor) and id <= ${last}`.execute(trx);
    await insertBigrams(trx, rows);
    await sql`update search_index_cursor set last_message_id = ${last}`.execute(trx);
    return rows.length;
  });
}
