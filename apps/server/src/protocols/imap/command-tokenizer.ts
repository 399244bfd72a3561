/**
 * The arguments of one IMAP command, tokenized line by line (RFC 3501 section 9, RFC 9051
 * section 9): atoms, NIL, quoted strings, literal headers `{n}` `{n+}` `~{n}` (RFC 7888,
 * RFC 3516), parenthesised lists, and FETCH sections with their partial, `BODY[1.2.HEADER.FIELDS
 * (From)]<0.100>` (RFC 3501 section 6.4.5). A literal ends a line; the reader brings its bytes and
 * the next line carries on where the literal left off, so the list nesting lives across lines.
 */
import { type ImapAtom, type ImapList, ImapSyntaxError, type ImapValue, parseNumber } from './imap-value.js';

const SP = 0x20;
const OPEN = 0x28;
const CLOSE = 0x29;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const BRACE = 0x7b;
const TILDE = 0x7e;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const LESS = 0x3c;

/** Atoms that take a section in brackets (RFC 3501 `fetch-att`, RFC 3516 section 4.2). */
const SECTIONED = new Set(['BODY', 'BODY.PEEK', 'BINARY', 'BINARY.PEEK', 'BINARY.SIZE']);

export interface LiteralHeader {
  /** Infinity when the digits do not fit */
  size: number;
  synchronising: boolean;
  binary: boolean;
}

export interface TokenizerLimits {
  maxDepth: number;
  maxTokens: number;
}

interface Frame {
  items: ImapValue[];
  /** set for a section: the atom the brackets belong to */
  atom: ImapAtom | null;
}

/**
 * `ATOM-CHAR` plus what `astring` and `list-mailbox` allow unquoted (RFC 3501 section 9: `]`,
 * `%`, `*`). Brackets are atom characters too (`[Gmail]/Sent`), except around a section.
 */
export function isAtomByte(byte: number): boolean {
  return (
    byte > SP &&
    byte < 0x7f &&
    byte !== OPEN &&
    byte !== CLOSE &&
    byte !== BRACE &&
    byte !== QUOTE &&
    byte !== BACKSLASH
  );
}

export class ArgumentTokenizer {
  private readonly frames: Frame[] = [{ items: [], atom: null }];
  private tokens = 0;
  /** the last token was a value: the next must be preceded by SP, or close a list */
  private afterValue = false;
  private literal: LiteralHeader | null = null;

  constructor(private readonly limits: TokenizerLimits) {}

  /**
   * Tokenizes `line` (without its CRLF) from `from`. Returns the literal the line ends with, whose
   * bytes must be given to `addLiteral`, or null when the line ends the arguments.
   */
  feed(line: Buffer, from: number): LiteralHeader | null {
    let at = from;
    while (at < line.length) {
      const byte = line[at]!;
      if (byte === SP) {
        this.afterValue = false;
        at++;
      } else if (byte === CLOSE || (byte === CLOSE_BRACKET && this.top().atom !== null)) {
        at = this.closeFrame(line, at, byte);
      } else {
        if (this.afterValue) throw new ImapSyntaxError('missing space between arguments');
        this.count();
        if (byte === OPEN) {
          this.openFrame(null);
          at++;
        } else if (byte === QUOTE) {
          at = this.quoted(line, at);
        } else if (byte === BRACE || (byte === TILDE && line[at + 1] === BRACE)) {
          this.literal = literalHeader(line, at);
          return this.literal;
        } else {
          at = this.atom(line, at);
        }
      }
    }
    return null;
  }

  addLiteral(bytes: Buffer): void {
    this.top().items.push({ type: 'literal', value: bytes, binary: this.literal?.binary ?? false });
    this.literal = null;
    this.afterValue = true;
  }

  /** The arguments, once the last line is in: every list and section must be closed. */
  finish(): ImapValue[] {
    if (this.frames.length > 1) throw new ImapSyntaxError('unclosed parenthesis or bracket');
    return this.frames[0]!.items;
  }

  private top(): Frame {
    return this.frames[this.frames.length - 1]!;
  }

  private count(): void {
    this.tokens++;
    if (this.tokens > this.limits.maxTokens) throw new ImapSyntaxError('too many arguments', 'LIMIT');
  }

  private openFrame(atom: ImapAtom | null): void {
    if (this.frames.length > this.limits.maxDepth)
      throw new ImapSyntaxError('lists nested too deep', 'LIMIT');
    this.frames.push({ items: [], atom });
    this.afterValue = false;
  }

  private closeFrame(line: Buffer, at: number, byte: number): number {
    const frame = this.top();
    if (this.frames.length === 1 || (byte === CLOSE) !== (frame.atom === null)) {
      throw new ImapSyntaxError(`unexpected "${String.fromCharCode(byte)}"`);
    }
    this.frames.pop();
    this.afterValue = true;
    if (frame.atom === null) {
      const list: ImapList = { type: 'list', items: frame.items };
      this.top().items.push(list);
      return at + 1;
    }
    frame.atom.section = frame.items;
    this.top().items.push(frame.atom);
    return line[at + 1] === LESS ? partial(line, at + 1, frame.atom) : at + 1;
  }

  private quoted(line: Buffer, start: number): number {
    const bytes: number[] = [];
    for (let at = start + 1; at < line.length; at++) {
      let byte = line[at]!;
      if (byte === QUOTE) {
        this.top().items.push({ type: 'quoted', value: Buffer.from(bytes).toString('utf8') });
        this.afterValue = true;
        return at + 1;
      }
      if (byte === BACKSLASH) {
        byte = line[++at] ?? 0;
        if (byte !== QUOTE && byte !== BACKSLASH) throw new ImapSyntaxError('bad escape in quoted string');
      }
      if (byte === 0 || byte === 0x0d || byte === 0x0a)
        throw new ImapSyntaxError('bad character in quoted string');
      bytes.push(byte);
    }
    throw new ImapSyntaxError('unterminated quoted string');
  }

  private atom(line: Buffer, start: number): number {
    let at = start;
    // flags and `flag-perm` (RFC 3501 section 9): a backslash only in front
    if (line[at] === BACKSLASH) at++;
    const inSection = this.top().atom !== null;
    for (; at < line.length; at++) {
      const byte = line[at]!;
      if (byte === CLOSE_BRACKET && inSection) break;
      if (byte === OPEN_BRACKET) {
        const name = line.toString('latin1', start, at);
        if (SECTIONED.has(name.toUpperCase())) {
          this.openFrame({ type: 'atom', value: name });
          return at + 1;
        }
      }
      if (!isAtomByte(byte)) break;
    }
    if (at === start || (at === start + 1 && line[start] === BACKSLASH)) {
      throw new ImapSyntaxError(`unexpected byte 0x${(line[at] ?? 0).toString(16)}`);
    }
    const value = line.toString('latin1', start, at);
    this.top().items.push(value.toUpperCase() === 'NIL' ? { type: 'nil' } : { type: 'atom', value });
    this.afterValue = true;
    return at;
  }
}

/** `{n}`, `{n+}` or `~{n}` at `at`, which must end the line (RFC 3501 `literal`, RFC 7888). */
function literalHeader(line: Buffer, at: number): LiteralHeader {
  const text = line.toString('latin1', at);
  const match = /^(~?)\{([0-9]+)(\+?)\}$/.exec(text);
  if (!match) throw new ImapSyntaxError('a literal must end the line');
  const digits = match[2]!.replace(/^0+(?=.)/, '');
  return {
    size: digits.length > 15 ? Number.POSITIVE_INFINITY : Number(digits),
    synchronising: match[3] === '',
    binary: match[1] === '~',
  };
}

/** `<origin>` or `<origin.length>` after a section (RFC 3501 `fetch-att`, `msg-att-static`). */
function partial(line: Buffer, at: number, atom: ImapAtom): number {
  const end = line.indexOf('>', at);
  const match = end < 0 ? null : /^<([0-9]+)(?:\.([0-9]+))?$/.exec(line.toString('latin1', at, end));
  if (!match) throw new ImapSyntaxError('bad partial');
  atom.partial = {
    offset: parseNumber(match[1]!, 'partial'),
    length: match[2] === undefined ? null : parseNumber(match[2], 'partial'),
  };
  return end + 1;
}
