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

/**
 * The index document of a message: the distinct pairs of each of its searched columns. It runs for
 * every stored message (10 KiB bodies and more), so it walks UTF-16 code units itself (a surrogate
 * pair is one code point, as `for…of` would read it) and folds A–Z as `sqliteLower` does, and it
 * keeps pairs as numbers, making a token string only for a pair not seen before.
 */
export function bigramDocument(columns: readonly (string | null)[]): string {
  // first code point → the code points seen after it
  const seen = new Map<number, Set<number>>();
  const tokens: string[] = [];
  for (const column of columns) {
    if (!column) continue;
    let previous = -1;
    for (let i = 0; i < column.length; i++) {
      let code = column.charCodeAt(i);
      if (code >= 0xd800 && code <= 0xdbff && i + 1 < column.length) {
        const low = column.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          code = (code - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
          i++;
        }
      }
      if (code >= 0x41 && code <= 0x5a) code += 0x20;
      if (previous >= 0) {
        let after = seen.get(previous);
        if (!after) {
          after = new Set();
          seen.set(previous, after);
        }
        if (!after.has(code)) {
          after.add(code);
          tokens.push(pairToken(previous, code));
        }
      }
      previous = code;
    }
  }
  return tokens.join(' ');
}

/** The FTS5 query for two characters of search text (already lowercased): its one pair, quoted. */
export function bigramQuery(lowered: string): string {
  const [first, second] = [...lowered].map((character) => character.codePointAt(0) ?? 0);
  if (first === undefined || second === undefined || [...lowered].length !== BIGRAM) {
    throw new Error('bigramQuery takes exactly two characters');
  }
  return `"${pairToken(first, second)}"`;
}
