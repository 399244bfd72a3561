import { type Kysely, sql } from 'kysely';
import type { Engine } from '../database.js';

/**
 * Indexes for getInbox's text search (a case-insensitive substring of subject, sender name, sender
 * address or body text; see `planMessageTextSearch` in db/repositories/message-repo.ts), so that
 * it stays fast at a million messages.
 *
 * SQLite: `messages_search`, an FTS5 table with the trigram tokenizer (case-insensitive), which
 * answers substring queries of three or more characters. It is contentless (`content=''`): it
 * stores only the index, not a second copy of the bodies, and `contentless_delete=1` lets a row go
 * by rowid alone (SQLite 3.43 or later). Triggers keep it in step with `messages` on every path:
 * insert, update of a searched column, delete, and the cascades from deleting a mailbox.
 *
 * PostgreSQL: pg_trgm GIN indexes on `lower(column)` of each searched column, the very expressions
 * the search compares with LIKE, so the planner can answer the unchanged query from them. Creating
 * the extension needs the CREATE privilege on the database (pg_trgm is a trusted extension); where
 * that is refused the migration goes on without these indexes, search stays correct but scans,
 * and the server warns at start (`db/search-index.ts`).
 */
export const SEARCHED_COLUMNS = ['subject', 'from_name', 'from_address', 'text_body'] as const;

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'postgres') await upPostgres(db);
  else await upSqlite(db);
}

async function upSqlite(db: Kysely<unknown>): Promise<void> {
  const columns = sql.join(SEARCHED_COLUMNS.map((column) => sql.ref(column)));
  const newValues = sql.join(SEARCHED_COLUMNS.map((column) => sql.ref(`new.${column}`)));
  // Kysely runs SQLite migrations outside a transaction; this one fills the index from every
  // existing row, so it takes one of its own: the table and its triggers appear whole or not at all.
  // Should a crash fall between this commit and the migrator's record of it, the next start
  // builds them again from scratch.
  await db.transaction().execute(async (trx) => {
    for (const trigger of ['messages_search_insert', 'messages_search_update', 'messages_search_delete']) {
      await sql`drop trigger if exists ${sql.id(trigger)}`.execute(trx);
    }
    await sql`drop table if exists messages_search`.execute(trx);
    await sql`create virtual table messages_search using fts5(${columns}, tokenize = 'trigram', content = '', contentless_delete = 1)`.execute(
      trx,
    );
    await sql`insert into messages_search (rowid, ${columns}) select id, ${columns} from messages`.execute(
      trx,
    );
    // Merge the segments the bulk fill wrote, so the first searches do not pay for it.
    await sql`insert into messages_search (messages_search) values ('optimize')`.execute(trx);
    await sql`create trigger messages_search_insert after insert on messages begin
      insert into messages_search (rowid, ${columns}) values (new.id, ${newValues});
    end`.execute(trx);
    await sql`create trigger messages_search_update after update of id, ${columns} on messages begin
      delete from messages_search where rowid = old.id;
      insert into messages_search (rowid, ${columns}) values (new.id, ${newValues});
    end`.execute(trx);
    await sql`create trigger messages_search_delete after delete on messages begin
      delete from messages_search where rowid = old.id;
    end`.execute(trx);
  });
}

async function upPostgres(db: Kysely<unknown>): Promise<void> {
  const schema = await trigramSchema(db);
  if (schema === null) return;
  for (const column of SEARCHED_COLUMNS) {
    await sql`create index ${sql.id(`messages_search_${column}`)} on messages using gin (lower(${sql.ref(column)}) ${sql.id(schema, 'gin_trgm_ops')})`.execute(
      db,
    );
  }
}

/**
 * Creates pg_trgm if it is missing and permitted; the schema it lives in, or null without it.
 * Migrations on PostgreSQL share one transaction, so a refused CREATE EXTENSION is rolled back to a
 * savepoint instead of aborting them all.
 */
async function trigramSchema(db: Kysely<unknown>): Promise<string | null> {
  const guarded = db.isTransaction;
  if (guarded) await sql`savepoint youju_pg_trgm`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
    if (guarded) await sql`release savepoint youju_pg_trgm`.execute(db);
  } catch {
    if (guarded) await sql`rollback to savepoint youju_pg_trgm`.execute(db);
  }
  const { rows } = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
    join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
  return rows[0]?.schema ?? null;
}
