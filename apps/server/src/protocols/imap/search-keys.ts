/**
 * SEARCH and UID SEARCH arguments (RFC 3501 section 6.4.4, RFC 9051 section 6.4.4) as a tree:
 * `[RETURN (...)]` (RFC 4731), `[CHARSET name]`, then keys ANDed together, with OR, NOT and
 * parenthesised groups; MODSEQ (RFC 7162 section 3.1.5), OLDER and YOUNGER (RFC 5032). Strings
 * may be quoted or literals; with CHARSET UTF-8 (or none, RFC 9051) they are read as UTF-8.
 */
import { astringOf, ImapSyntaxError, type ImapValue, keywordOf, numberOf } from './imap-value.js';
import { parseSearchDate } from './internal-date.js';
import { parseSequenceSet, type SequenceSet } from './sequence-set.js';

export type SearchKey =
  | { type: 'all' }
  /** `\Seen` for SEEN, `\Recent` for RECENT and NEW, keywords for KEYWORD */
  | { type: 'flag'; flag: string; set: boolean }
  | { type: 'text'; field: 'BCC' | 'BODY' | 'CC' | 'FROM' | 'SUBJECT' | 'TEXT' | 'TO'; value: string }
  | { type: 'header'; field: string; value: string }
  /** `date` is YYYY-MM-DD; `sent` compares the Date header, otherwise INTERNALDATE */
  | { type: 'date'; sent: boolean; comparison: 'before' | 'on' | 'since'; date: string }
  | { type: 'size'; comparison: 'larger' | 'smaller'; size: number }
  | { type: 'sequence'; set: SequenceSet }
  | { type: 'uid'; set: SequenceSet }
  | { type: 'modseq'; modseq: number }
  | { type: 'age'; comparison: 'older' | 'younger'; seconds: number }
  | { type: 'not'; key: SearchKey }
  | { type: 'or'; left: SearchKey; right: SearchKey }
  | { type: 'and'; keys: SearchKey[] };

export interface SearchArguments {
  /** RFC 4731 result options (MIN, MAX, ALL, COUNT, SAVE), upper-cased; null without RETURN */
  returnOptions: string[] | null;
  key: SearchKey;
}

/** keys so deeply nested are a denial of service, not a search */
const MAX_DEPTH = 64;

const FLAG_KEYS: Record<string, [string, boolean]> = {
  ANSWERED: ['\\Answered', true],
  DELETED: ['\\Deleted', true],
  DRAFT: ['\\Draft', true],
  FLAGGED: ['\\Flagged', true],
  SEEN: ['\\Seen', true],
  RECENT: ['\\Recent', true],
  UNANSWERED: ['\\Answered', false],
  UNDELETED: ['\\Deleted', false],
  UNDRAFT: ['\\Draft', false],
  UNFLAGGED: ['\\Flagged', false],
  UNSEEN: ['\\Seen', false],
  OLD: ['\\Recent', false],
};
const TEXT_KEYS = new Set(['BCC', 'BODY', 'CC', 'FROM', 'SUBJECT', 'TEXT', 'TO']);
const DATE_KEYS: Record<string, [boolean, 'before' | 'on' | 'since']> = {
  BEFORE: [false, 'before'],
  ON: [false, 'on'],
  SINCE: [false, 'since'],
  SENTBEFORE: [true, 'before'],
  SENTON: [true, 'on'],
  SENTSINCE: [true, 'since'],
};

export function parseSearchArguments(args: ImapValue[]): SearchArguments {
  let at = 0;
  let returnOptions: string[] | null = null;
  if (keywordOf(args[at]) === 'RETURN') {
    const options = args[at + 1];
    if (options?.type !== 'list') throw new ImapSyntaxError('RETURN needs a list');
    returnOptions = options.items.map((item) => {
      const name = keywordOf(item);
      if (name === null) throw new ImapSyntaxError('bad RETURN option');
      return name;
    });
    at += 2;
  }
  if (keywordOf(args[at]) === 'CHARSET') {
    const charset = astringOf(args[at + 1], 'charset').toUpperCase();
    // RFC 3501 section 6.4.4: US-ASCII is required; UTF-8 is what Youju reads strings as
    if (charset !== 'UTF-8' && charset !== 'US-ASCII')
      throw new ImapSyntaxError('unsupported charset', 'BADCHARSET');
    at += 2;
  }
  const reader = new KeyReader(args.slice(at));
  const keys: SearchKey[] = [];
  while (!reader.done()) keys.push(reader.key(0));
  if (keys.length === 0) throw new ImapSyntaxError('SEARCH needs a key');
  return { returnOptions, key: keys.length === 1 ? keys[0]! : { type: 'and', keys } };
}

class KeyReader {
  private at = 0;
  constructor(private readonly values: ImapValue[]) {}

  done(): boolean {
    return this.at >= this.values.length;
  }

  private take(what: string): ImapValue {
    const value = this.values[this.at++];
    if (value === undefined) throw new ImapSyntaxError(`SEARCH key needs ${what}`);
    return value;
  }

  key(depth: number): SearchKey {
    if (depth > MAX_DEPTH) throw new ImapSyntaxError('SEARCH keys nested too deep', 'LIMIT');
    const value = this.take('a key');
    if (value.type === 'list') {
      const inner = new KeyReader(value.items);
      const keys: SearchKey[] = [];
      while (!inner.done()) keys.push(inner.key(depth + 1));
      if (keys.length === 0) throw new ImapSyntaxError('empty SEARCH group');
      return keys.length === 1 ? keys[0]! : { type: 'and', keys };
    }
    const name = keywordOf(value);
    if (name === null) throw new ImapSyntaxError('bad SEARCH key');
    const flag = FLAG_KEYS[name];
    if (flag) return { type: 'flag', flag: flag[0], set: flag[1] };
    const date = DATE_KEYS[name];
    if (date)
      return {
        type: 'date',
        sent: date[0],
        comparison: date[1],
        date: parseSearchDate(this.string('a date')),
      };
    if (TEXT_KEYS.has(name)) {
      return { type: 'text', field: name as 'TEXT', value: this.string('a string') };
    }
    return this.otherKey(name, value, depth);
  }

  private otherKey(name: string, value: ImapValue, depth: number): SearchKey {
    switch (name) {
      case 'ALL':
        return { type: 'all' };
      case 'NEW':
        return { type: 'and', keys: [flagKey('\\Recent', true), flagKey('\\Seen', false)] };
      case 'KEYWORD':
      case 'UNKEYWORD':
        return flagKey(this.string('a keyword'), name === 'KEYWORD');
      case 'HEADER':
        return { type: 'header', field: this.string('a header name'), value: this.string('a string') };
      case 'LARGER':
      case 'SMALLER':
        return {
          type: 'size',
          comparison: name === 'LARGER' ? 'larger' : 'smaller',
          size: numberOf(this.take('a size')),
        };
      case 'UID':
        return { type: 'uid', set: parseSequenceSet(this.string('a sequence set')) };
      case 'NOT':
        return { type: 'not', key: this.key(depth + 1) };
      case 'OR':
        return { type: 'or', left: this.key(depth + 1), right: this.key(depth + 1) };
      case 'OLDER':
      case 'YOUNGER':
        return {
          type: 'age',
          comparison: name === 'OLDER' ? 'older' : 'younger',
          seconds: numberOf(this.take('seconds')),
        };
      case 'MODSEQ':
        return this.modseq();
    }
    if (/^[0-9*$]/.test(name) && value.type === 'atom')
      return { type: 'sequence', set: parseSequenceSet(value.value) };
    throw new ImapSyntaxError(`unknown SEARCH key "${name.slice(0, 40)}"`);
  }

  /** RFC 7162 section 3.1.5: `MODSEQ [entry-name entry-type] mod-sequence-valzer` */
  private modseq(): SearchKey {
    if (this.values[this.at]?.type !== 'atom' || !/^[0-9]+$/.test(astringOf(this.values[this.at]))) {
      this.string('an entry name');
      this.string('an entry type');
    }
    return {
      type: 'modseq',
      modseq: numberOf(this.take('a mod-sequence'), 'MODSEQ', Number.MAX_SAFE_INTEGER),
    };
  }

  private string(what: string): string {
    return astringOf(this.take(what), what);
  }
}

function flagKey(flag: string, set: boolean): SearchKey {
  return { type: 'flag', flag, set };
}
