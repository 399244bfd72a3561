import type { FolderMessageRow } from '../modules/mail/index.js';
import type { SearchKey } from '../protocols/imap/search-keys.js';
import { type SequenceSet, sequenceSetMatcher } from '../protocols/imap/sequence-set.js';
import { flagsOf } from './imap-flags.js';

/** The text SEARCH compares, per message (decoded: subject, people, body text). */
export interface SearchText {
  subject: string;
  from: string;
  to: string;
  cc: string;
  body: string;
  /** the Date header (epoch ms), or null */
  sentAt: number | null;
}

export interface SearchContext {
  messages: FolderMessageRow[];
  /** loads the text of the messages that need it, once per SEARCH */
  text(ids: number[]): Promise<Map<number, SearchText>>;
  /** the raw header block of a message, for HEADER keys */
  header(message: FolderMessageRow): Promise<string>;
  now: number;
}

function needsText(key: SearchKey): boolean {
  switch (key.type) {
    case 'text':
      return true;
    case 'date':
      return key.sent;
    case 'not':
      return needsText(key.key);
    case 'or':
      return needsText(key.left) || needsText(key.right);
    case 'and':
      return key.keys.some(needsText);
    default:
      return false;
  }
}

/** Each set of a SEARCH resolved once per largest number, not once per message it is tested on. */
const matchers = new WeakMap<object, { largest: number; test: (number: number) => boolean }>();

function inSet(set: SequenceSet, number: number, largest: number): boolean {
  if (set === '$') return false;
  let matcher = matchers.get(set);
  if (matcher?.largest !== largest) {
    matcher = { largest, test: sequenceSetMatcher(set, largest) };
    matchers.set(set, matcher);
  }
  return matcher.test(number);
}

/** Day `YYYY-MM-DD` of an epoch time, in UTC (RFC 3501 leaves the zone to the server). */
function dayOf(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/**
 * The messages (by index into `context.messages`) that match `key` (RFC 3501 section 6.4.4):
 * strings match as case-insensitive substrings of the decoded text, so Chinese works as typed.
 */
/**
 * Messages whose text is loaded and compared at a time: a SEARCH of a large folder holds one slice's
 * text in memory, and gives the event loop back between slices.
 */
const SEARCH_SLICE = 200;

export async function searchMessages(key: SearchKey, context: SearchContext): Promise<number[]> {
  const { messages } = context;
  const withText = needsText(key);
  let texts = new Map<number, SearchText>();
  const largestSeq = messages.length;
  const largestUid = messages[messages.length - 1]?.uid ?? 0;
  const headers = new Map<number, string>();

  async function matches(message: FolderMessageRow, index: number, key: SearchKey): Promise<boolean> {
    switch (key.type) {
      case 'all':
        return true;
      case 'flag': {
        const flags = flagsOf(message).map((flag) => flag.toLowerCase());
        if (key.flag === '\\Recent') return !key.set;
        return flags.includes(key.flag.toLowerCase()) === key.set;
      }
      case 'text': {
        const text = texts.get(message.id);
        if (!text) return false;
        const wanted = key.value.toLowerCase();
        const fields: Record<typeof key.field, string> = {
          BCC: '',
          BODY: text.body,
          CC: text.cc,
          FROM: text.from,
          SUBJECT: text.subject,
          TO: text.to,
          TEXT: `${text.subject}\n${text.from}\n${text.to}\n${text.cc}\n${text.body}`,
        };
        return fields[key.field].toLowerCase().includes(wanted);
      }
      case 'header': {
        let header = headers.get(message.id);
        if (header === undefined) {
          header = await context.header(message);
          headers.set(message.id, header);
        }
        const name = key.field.toLowerCase();
        const wanted = key.value.toLowerCase();
        return header.split(/\r?\n(?![ \t])/).some((line) => {
          const colon = line.indexOf(':');
          return (
            colon > 0 &&
            line.slice(0, colon).trim().toLowerCase() === name &&
            line
              .slice(colon + 1)
              .toLowerCase()
              .includes(wanted)
          );
        });
      }
      case 'date': {
        const time = key.sent ? (texts.get(message.id)?.sentAt ?? null) : message.received_at;
        if (time === null) return false;
        const day = dayOf(time);
        if (key.comparison === 'before') return day < key.date;
        if (key.comparison === 'on') return day === key.date;
        return day >= key.date;
      }
      case 'size':
        return key.comparison === 'larger' ? message.size > key.size : message.size < key.size;
      case 'sequence':
        return inSet(key.set, index + 1, largestSeq);
      case 'uid':
        return inSet(key.set, message.uid, largestUid);
      case 'modseq':
        return message.modseq >= key.modseq;
      case 'age': {
        const age = (context.now - message.received_at) / 1000;
        return key.comparison === 'older' ? age >= key.seconds : age <= key.seconds;
      }
      case 'not':
        return !(await matches(message, index, key.key));
      case 'or':
        return (await matches(message, index, key.left)) || (await matches(message, index, key.right));
      case 'and':
        for (const inner of key.keys) if (!(await matches(message, index, inner))) return false;
        return true;
    }
  }

  const found: number[] = [];
  for (let start = 0; start < messages.length; start += SEARCH_SLICE) {
    const slice = messages.slice(start, start + SEARCH_SLICE);
    if (withText) texts = await context.text(slice.map((m) => m.id));
    for (const [offset, message] of slice.entries()) {
      if (await matches(message, start + offset, key)) found.push(start + offset);
    }
    headers.clear();
    if (start + SEARCH_SLICE < messages.length) await new Promise((resolve) => setImmediate(resolve));
  }
  return found;
}
