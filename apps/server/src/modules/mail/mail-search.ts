import { type ExpressionBuilder, type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Engine } from '../../db/database.js';
import type { Database } from '../../db/schema.js';

/** Received messages joined to their mailbox, already narrowed to what the caller may see. */
export type Scoped = SelectQueryBuilder<Database, 'messages' | 'mailboxes', object>;

/** The trigram index answers text of at least this many characters (code points). */
const TRIGRAM = 3;

/**
 * SQLite plan choice. Below `smallScope` messages in the caller's filtered mailboxes a scan costs
 * tens of milliseconds, less than reading the index for a common word across everyone's mail.
 * Above it the index is used when it returns at most one row for every `scanToIndexRatio` messages
 * the scan would read (fetching a row by id costs several times more than scanning one, measured
 * at a million messages), and never for `candidateLimit` candidates or more.
 */
export interface SearchTuning {
  smallScope: number;
  scanToIndexRatio: number;
  candidateLimit: number;
}

export const DEFAULT_SEARCH_TUNING: SearchTuning = {
  smallScope: 50_000,
  scanToIndexRatio: 4,
  candidateLimit: 200_000,
};

/** LIKE pattern for a user's search text, with the wildcards escaped. */
export function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
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
 * The text as one FTS5 phrase: inside double quotes nothing is query syntax but a doubled quote,
 * and with the trigram tokenizer a phrase matches wherever the text occurs as a substring of one
 * column (https://sqlite.org/fts5.html#fts5_strings, #the_trigram_tokenizer).
 */
export function trigramPhrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/**
 * getInbox's text search (`q`). The LIKE condition always decides what matches; an index only
 * narrows the rows it is evaluated on. On PostgreSQL the planner does that with the pg_trgm
 * indexes of migration 025. On SQLite, for text of three or more characters, the FTS5 trigram
 * table `messages_search` gives the candidate ids: it folds case over all of Unicode, where
 * SQLite's lower() and LIKE fold only ASCII, so its rows are a superset of the LIKE matches and
 * the results are exactly those of a plain scan. Shorter text (two Chinese characters are a
 * common word) has no trigram and is scanned, within the caller's mailboxes as ever.
 */
export function createMailSearch(
  db: Kysely<Database>,
  engine: Engine,
  tuning: SearchTuning = DEFAULT_SEARCH_TUNING,
) {
  const { smallScope, scanToIndexRatio, candidateLimit } = tuning;

  async function countUpTo(query: Scoped, cap: number): Promise<number> {
    const row = await db
      .selectFrom(query.select(sql.lit(1).as('one')).limit(cap).as('capped'))
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async function candidatesUpTo(phrase: string, cap: number): Promise<number> {
    const { rows } = await sql<{ count: number }>`select count(*) as count from (select rowid
      from messages_search where messages_search match ${phrase} limit ${cap})`.execute(db);
    return Number(rows[0]?.count ?? 0);
  }

  /** SQLite has no statistics for the FTS table, so the choice between index and scan is ours. */
  async function useTrigramIndex(scope: Scoped, text: string): Promise<boolean> {
    if (engine !== 'sqlite' || [...text].length < TRIGRAM) return false;
    if ((await countUpTo(scope, smallScope)) < smallScope) return false;
    const candidates = await candidatesUpTo(trigramPhrase(text), candidateLimit);
    if (candidates >= candidateLimit) return false;
    const worthIt = candidates * scanToIndexRatio;
    return worthIt <= smallScope || (await countUpTo(scope, worthIt)) >= worthIt;
  }

  return {
    /**
     * The condition for `text` on queries over `scope` (the caller's messages with getInbox's
     * other filters), as a function that adds it to such a query.
     */
    async filter(scope: Scoped, text: string): Promise<(query: Scoped) => Scoped> {
      const pattern = likePattern(text);
      const lowered = text.toLowerCase();
      if (!(await useTrigramIndex(scope, lowered))) {
        return (query) => query.where((eb) => textMatches(eb, pattern));
      }
      const phrase = trigramPhrase(lowered);
      return (query) =>
        query
          .where(
            (eb) =>
              sql<boolean>`${eb.ref('messages.id')} in (select rowid from messages_search
                where messages_search match ${phrase})`,
          )
          .where((eb) => textMatches(eb, pattern));
    },
  };
}

export type MailSearch = ReturnType<typeof createMailSearch>;
