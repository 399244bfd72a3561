/**
 * STORE and UID STORE arguments (RFC 3501 section 6.4.6, RFC 9051 section 6.4.6): `FLAGS`,
 * `+FLAGS`, `-FLAGS`, each with `.SILENT`, flags as a list or one by one, and the UNCHANGEDSINCE
 * modifier (RFC 7162 section 3.1.3).
 */
import { ImapSyntaxError, type ImapValue, keywordOf, numberOf } from './imap-value.js';
import { parseSequenceSet, type SequenceSet } from './sequence-set.js';

export interface StoreArguments {
  sequence: SequenceSet;
  operation: 'replace' | 'add' | 'remove';
  silent: boolean;
  /** as sent: system flags keep their backslash (`\Seen`), keywords their case */
  flags: string[];
  unchangedSince: number | null;
}

export function parseStoreArguments(args: ImapValue[]): StoreArguments {
  const [set, ...rest] = args;
  if (set?.type !== 'atom') throw new ImapSyntaxError('STORE needs a sequence set');
  let unchangedSince: number | null = null;
  if (rest[0]?.type === 'list') {
    const [name, value, ...extra] = rest[0].items;
    if (keywordOf(name) !== 'UNCHANGEDSINCE' || extra.length > 0)
      throw new ImapSyntaxError('unknown STORE modifier');
    unchangedSince = numberOf(value, 'UNCHANGEDSINCE', Number.MAX_SAFE_INTEGER);
    rest.shift();
  }
  const match = /^([+-]?)FLAGS(\.SILENT)?$/.exec(keywordOf(rest[0]) ?? '');
  if (match === null) throw new ImapSyntaxError('STORE needs FLAGS, +FLAGS or -FLAGS');
  // `flag-list` or, as RFC 3501 `store-att-flags` also allows, flags one by one
  const given = rest.slice(1);
  const single = given.length === 1 ? given[0] : undefined;
  const values = single?.type === 'list' ? single.items : given;
  if (given.length === 0 || (single === undefined && given.some((value) => value.type === 'list'))) {
    throw new ImapSyntaxError('STORE needs flags');
  }
  const flags = values.map(flagOf);
  return {
    sequence: parseSequenceSet(set.value),
    operation: match[1] === '+' ? 'add' : match[1] === '-' ? 'remove' : 'replace',
    silent: match[2] !== undefined,
    flags,
    unchangedSince,
  };
}

/** RFC 3501 `flag`: `\Answered`... or a keyword atom; `\*` only appears in PERMANENTFLAGS. */
export function flagOf(value: ImapValue): string {
  if (value.type !== 'atom' || value.section !== undefined || !/^\\?[^\\\]%*]+$/.test(value.value)) {
    throw new ImapSyntaxError('bad flag');
  }
  return value.value;
}
