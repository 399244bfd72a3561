/**
 * The two-character search index (migration 056): which pairs of adjacent characters each message
 * holds in its searched columns, so that a search of two characters (too short for the trigram
 * indexes of migration 025) is answered from an index instead of reading every message.
 *
 * SQLite: the pairs of a message are written by this module's code (no SQL function could without
 * a C extension) as one document of tokens into the FTS5 table `messages_bigrams`, tokenized by
 * FTS5's `ascii` tokenizer: each pair becomes the two code points in hexadecimal joined by `x`
 * (`53d1x7968` for 发票), so that no character of the mail is ever FTS5 syntax or a separator.
 *
 * The pairs are those of each column as SQLite's lower() leaves it (it folds A–Z only) and never
 * across two columns. The search's meaning on SQLite is `lower(column) LIKE '%text%'` with LIKE
 * folding ASCII case only, for `text` lowercased; so for text of two characters, a message matches
 * exactly when its document holds the text's one pair: the index is exact, not only a superset.
 */

/** Characters (code points) in a pair. */
export const BIGRAM = 2;

/** SQLite's lower() without ICU: the ASCII letters only (https://sqlite.org/lang_corefunc.html#lower). */
export function sqliteLower(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

function pairToken(first: number, second: number): string {
  return `${first.toString(16)}x${second.toString(16)}`;
}

/** The index document of a message: the distinct pairs of each of its searched columns. */
export function bigramDocument(columns: readonly (string | null)[]): string {
  const tokens = new Set<string>();
  for (const column of columns) {
    if (!column) continue;
    let previous = -1;
    for (const character of sqliteLower(column)) {
      const code = character.codePointAt(0) ?? 0;
      if (previous >= 0) tokens.add(pairToken(previous, code));
      previous = code;
    }
  }
  return [...tokens].join(' ');
}

/** The FTS5 query for two characters of search text (already lowercased): its one pair, quoted. */
export function bigramQuery(lowered: string): string {
  const [first, second] = [...lowered].map((character) => character.codePointAt(0) ?? 0);
  if (first === undefined || second === undefined || [...lowered].length !== BIGRAM) {
    throw new Error('bigramQuery takes exactly two characters');
  }
  return `"${pairToken(first, second)}"`;
}
