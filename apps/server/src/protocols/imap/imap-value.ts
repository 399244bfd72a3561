/**
 * The values an IMAP command carries once read off the wire (RFC 3501 section 4, RFC 9051
 * section 4): atoms, NIL, quoted strings, literals, parenthesised lists, and the section and
 * partial of a FETCH `BODY[...]<...>` item (RFC 3501 section 6.4.5). Also the one error every IMAP
 * parser here throws, and the readers that turn a value into what a grammar rule asks for.
 */

/** The reason a command or argument is refused; `code` is a response code for the tagged reply. */
export class ImapSyntaxError extends Error {
  constructor(
    message: string,
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'ImapSyntaxError';
  }
}

export interface ImapAtom {
  type: 'atom';
  /** as sent; flags keep their backslash (`\Seen`), sequence sets their `*` and `$` */
  value: string;
  /** `BODY[1.2.HEADER.FIELDS (From To)]`: the items between the brackets (RFC 3501 section 6.4.5) */
  section?: ImapValue[];
  /** `<0.100>` after a section: octet origin and, in commands, a length */
  partial?: { offset: number; length: number | null };
}

export interface ImapNil {
  type: 'nil';
}

export interface ImapQuoted {
  type: 'quoted';
  /** UTF-8 decoded (RFC 9051 section 4.3 allows UTF-8 in quoted strings) */
  value: string;
}

export interface ImapLiteral {
  type: 'literal';
  value: Buffer;
  /** `~{n}`: literal8, may hold NUL (RFC 3516, RFC 9051 section 4.3) */
  binary: boolean;
}

export interface ImapList {
  type: 'list';
  items: ImapValue[];
}

export type ImapValue = ImapAtom | ImapNil | ImapQuoted | ImapLiteral | ImapList;

/** RFC 3501 `number`: unsigned 32-bit. */
export const MAX_NUMBER = 0xffff_ffff;

/** `astring` (atom, quoted or literal) as text; NIL counts, being a valid atom. */
export function astringOf(value: ImapValue | undefined, what = 'argument'): string {
  if (value?.type === 'atom' && value.section === undefined) return value.value;
  if (value?.type === 'nil') return 'NIL';
  if (value?.type === 'quoted') return value.value;
  if (value?.type === 'literal') return value.value.toString('utf8');
  throw new ImapSyntaxError(`${what} must be a string`);
}

/** `string` (quoted or literal) or `nstring` as bytes. */
export function stringBytesOf(value: ImapValue | undefined, what = 'argument'): Buffer {
  if (value?.type === 'quoted') return Buffer.from(value.value, 'utf8');
  if (value?.type === 'literal') return value.value;
  if (value?.type === 'atom' && value.section === undefined) return Buffer.from(value.value, 'latin1');
  throw new ImapSyntaxError(`${what} must be a string`);
}

/** A plain atom's text, upper-cased: keywords such as `FLAGS` or `CHARSET`. */
export function keywordOf(value: ImapValue | undefined): string | null {
  return value?.type === 'atom' && value.section === undefined ? value.value.toUpperCase() : null;
}

/** RFC 3501 `number` (or RFC 9051 `number64` with `max`) from an atom of digits only. */
export function numberOf(value: ImapValue | undefined, what = 'number', max = MAX_NUMBER): number {
  const text = value?.type === 'atom' && value.section === undefined ? value.value : '';
  return parseNumber(text, what, max);
}

export function parseNumber(text: string, what = 'number', max = MAX_NUMBER): number {
  if (!/^[0-9]{1,20}$/.test(text)) throw new ImapSyntaxError(`${what} must be a number`);
  const digits = text.replace(/^0+(?=.)/, '');
  if (digits.length > 16 || Number(digits) > max) throw new ImapSyntaxError(`${what} is too large`);
  return Number(digits);
}

/** The items of a list, or the one value as a list of one (flags may come either way). */
export function itemsOf(value: ImapValue | undefined): ImapValue[] {
  if (value === undefined) return [];
  return value.type === 'list' ? value.items : [value];
}
