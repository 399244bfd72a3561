/**
 * FETCH arguments (RFC 3501 section 6.4.5, RFC 9051 section 6.4.5): the macros ALL, FAST and FULL,
 * single items or a list of them, `BODY[section]<origin.length>` and BODY.PEEK, BINARY,
 * BINARY.PEEK and BINARY.SIZE (RFC 3516 section 4.2), MODSEQ and the CHANGEDSINCE modifier
 * (RFC 7162 section 3.1.4).
 */
import {
  astringOf,
  type ImapAtom,
  ImapSyntaxError,
  type ImapValue,
  itemsOf,
  keywordOf,
  numberOf,
} from './imap-value.js';
import { parseSequenceSet, type SequenceSet } from './sequence-set.js';

export type SectionText = 'HEADER' | 'HEADER.FIELDS' | 'HEADER.FIELDS.NOT' | 'TEXT' | 'MIME';

/** `section-spec`: a part path (`1.2`, empty for the whole message) and what of it. */
export interface Section {
  part: number[];
  text: SectionText | null;
  /** header names for HEADER.FIELDS and HEADER.FIELDS.NOT, upper-cased */
  fields: string[];
}

export interface FetchPartial {
  offset: number;
  length: number;
}

export type FetchAttribute =
  | {
      name:
        | 'ENVELOPE'
        | 'FLAGS'
        | 'INTERNALDATE'
        | 'RFC822.SIZE'
        | 'RFC822'
        | 'RFC822.HEADER'
        | 'RFC822.TEXT';
    }
  | { name: 'BODYSTRUCTURE' | 'BODY' | 'UID' | 'MODSEQ' }
  | { name: 'BODY[]'; peek: boolean; section: Section; partial: FetchPartial | null }
  | { name: 'BINARY[]'; peek: boolean; part: number[]; partial: FetchPartial | null }
  | { name: 'BINARY.SIZE'; part: number[] };

export interface FetchArguments {
  sequence: SequenceSet;
  attributes: FetchAttribute[];
  /** RFC 7162 section 3.1.4 */
  changedSince: number | null;
  /** RFC 7162 section 3.2.6: only in UID FETCH */
  vanished: boolean;
}

const SIMPLE = new Set([
  'ENVELOPE',
  'FLAGS',
  'INTERNALDATE',
  'RFC822.SIZE',
  'RFC822',
  'RFC822.HEADER',
  'RFC822.TEXT',
  'BODYSTRUCTURE',
  'BODY',
  'UID',
  'MODSEQ',
]);

const MACROS: Record<string, string[]> = {
  ALL: ['FLAGS', 'INTERNALDATE', 'RFC822.SIZE', 'ENVELOPE'],
  FAST: ['FLAGS', 'INTERNALDATE', 'RFC822.SIZE'],
  FULL: ['FLAGS', 'INTERNALDATE', 'RFC822.SIZE', 'ENVELOPE', 'BODY'],
};

/** The arguments of FETCH or UID FETCH: `sequence-set SP (macro / att / "(" att *(SP att) ")")`. */
export function parseFetchArguments(args: ImapValue[]): FetchArguments {
  const [set, items, modifiers, ...extra] = args;
  if (set?.type !== 'atom' || items === undefined || extra.length > 0) {
    throw new ImapSyntaxError('FETCH needs a sequence set and items');
  }
  const macro = MACROS[keywordOf(items) ?? ''];
  const attributes = macro
    ? macro.map((name) => ({ name }) as FetchAttribute)
    : itemsOf(items).map(parseFetchAttribute);
  if (attributes.length === 0) throw new ImapSyntaxError('FETCH needs items');
  const result: FetchArguments = {
    sequence: parseSequenceSet(set.value),
    attributes,
    changedSince: null,
    vanished: false,
  };
  if (modifiers !== undefined) readModifiers(modifiers, result);
  return result;
}

function readModifiers(modifiers: ImapValue, result: FetchArguments): void {
  if (modifiers.type !== 'list') throw new ImapSyntaxError('FETCH modifiers must be a list');
  for (let at = 0; at < modifiers.items.length; at++) {
    const name = keywordOf(modifiers.items[at]);
    if (name === 'CHANGEDSINCE') {
      result.changedSince = numberOf(modifiers.items[++at], 'CHANGEDSINCE', Number.MAX_SAFE_INTEGER);
    } else if (name === 'VANISHED') {
      result.vanished = true;
    } else {
      throw new ImapSyntaxError('unknown FETCH modifier');
    }
  }
}

export function parseFetchAttribute(value: ImapValue): FetchAttribute {
  if (value.type !== 'atom') throw new ImapSyntaxError('bad FETCH item');
  const name = value.value.toUpperCase();
  if (value.section === undefined) {
    if (SIMPLE.has(name)) return { name } as FetchAttribute;
    throw new ImapSyntaxError(`unknown FETCH item "${value.value.slice(0, 40)}"`);
  }
  const partial = partialOf(value);
  if (name === 'BODY' || name === 'BODY.PEEK') {
    return { name: 'BODY[]', peek: name === 'BODY.PEEK', section: parseSection(value.section), partial };
  }
  const part = binaryPart(value.section);
  if (name === 'BINARY.SIZE') {
    if (partial !== null) throw new ImapSyntaxError('BINARY.SIZE takes no partial');
    return { name: 'BINARY.SIZE', part };
  }
  return { name: 'BINARY[]', peek: name === 'BINARY.PEEK', part, partial };
}

function partialOf(atom: ImapAtom): FetchPartial | null {
  if (atom.partial === undefined) return null;
  // RFC 3501 `fetch-att`: `"<" number "." nz-number ">"` in commands
  if (atom.partial.length === null || atom.partial.length === 0) throw new ImapSyntaxError('bad partial');
  return { offset: atom.partial.offset, length: atom.partial.length };
}

/** `1.2`, `1.2.MIME`, `HEADER`...; MIME only after a part number */
const SECTION_SPEC =
  /^(?:([1-9][0-9]*(?:\.[1-9][0-9]*)*)(?:\.(HEADER|HEADER\.FIELDS|HEADER\.FIELDS\.NOT|TEXT|MIME))?|(HEADER|HEADER\.FIELDS|HEADER\.FIELDS\.NOT|TEXT))$/;

/** RFC 3501 `section-spec`: `[part "."] (HEADER / HEADER.FIELDS[.NOT] (names) / TEXT / MIME)`. */
export function parseSection(items: ImapValue[]): Section {
  const [spec, names, ...extra] = items;
  if (spec === undefined) return { part: [], text: null, fields: [] };
  const text = keywordOf(spec);
  if (text === null || extra.length > 0) throw new ImapSyntaxError('bad section');
  const match = SECTION_SPEC.exec(text);
  if (match === null) throw new ImapSyntaxError('bad section');
  const part =
    match[1] === undefined
      ? []
      : match[1].split('.').map((n) => numberOf({ type: 'atom', value: n }, 'part'));
  const which = (match[2] ?? match[3] ?? null) as SectionText | null;
  const wantsFields = which === 'HEADER.FIELDS' || which === 'HEADER.FIELDS.NOT';
  if (wantsFields !== (names !== undefined)) throw new ImapSyntaxError('bad section');
  if (names !== undefined && (names.type !== 'list' || names.items.length === 0)) {
    throw new ImapSyntaxError('HEADER.FIELDS needs a list of names');
  }
  const fields =
    names?.type === 'list' ? names.items.map((name) => astringOf(name, 'header name').toUpperCase()) : [];
  return { part, text: which, fields };
}

/** RFC 3516 `section-binary`: a part path only. */
function binaryPart(items: ImapValue[]): number[] {
  if (items.length === 0) return [];
  const spec = keywordOf(items[0]);
  if (items.length > 1 || spec === null || !/^[1-9][0-9]*(\.[1-9][0-9]*)*$/.test(spec)) {
    throw new ImapSyntaxError('bad BINARY section');
  }
  return spec.split('.').map((n) => numberOf({ type: 'atom', value: n }, 'part'));
}

/**
 * The name an item is answered under (RFC 3501 section 7.4.2 `msg-att-static`): `.PEEK` dropped,
 * a partial reduced to its origin, `BODY[1.HEADER.FIELDS (FROM)]<0>`.
 */
export function fetchResponseName(attribute: FetchAttribute): string {
  switch (attribute.name) {
    case 'BODY[]': {
      const { part, text, fields } = attribute.section;
      const spec = [...part.map(String), ...(text === null ? [] : [text])].join('.');
      const list = fields.length > 0 ? ` (${fields.join(' ')})` : '';
      return `BODY[${spec}${list}]${attribute.partial === null ? '' : `<${attribute.partial.offset}>`}`;
    }
    case 'BINARY[]':
      return `BINARY[${attribute.part.join('.')}]${attribute.partial === null ? '' : `<${attribute.partial.offset}>`}`;
    case 'BINARY.SIZE':
      return `BINARY.SIZE[${attribute.part.join('.')}]`;
    default:
      return attribute.name;
  }
}
