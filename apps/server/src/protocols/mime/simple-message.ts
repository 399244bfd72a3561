/**
 * Simple messages read synchronously from memory, exactly as mailparser 3.9.31 (over
 * @zone-eu/mailsplit 5.4.19 and libmime 5.4.6, all pinned) reads them through its streams: the
 * header block (RFC 5322 section 2.1, folding of section 2.2.3), one text part (RFC 2045 sections
 * 5 and 6, RFC 2046 section 4.1) or a multipart/alternative of text parts (RFC 2046 sections
 * 5.1.1 and 5.1.4). Anything else, and anything whose reading is in doubt, returns null: the
 * caller then runs mailparser. Streams cost far more than the reading on small mail (timers,
 * events and buffers per line), and most mail is small and simple.
 *
 * "Exactly" includes mailparser's quirks (an invalid Date reads as the time of parsing, a part
 * whose whole body is one empty line keeps it before the next delimiter, the last of several
 * Subject fields wins). The differential test (apps/server/test/mail/simple-parse.test.ts) feeds
 * the same bytes to both readers. Each rule below names the library code it reproduces.
 *
 * libmime, the address parser, punycode and html-to-text are loaded on first use, and from
 * mailparser's own dependencies: a message without encoded words or HTML needs none of them.
 */
import { isAscii } from 'node:buffer';
import { createRequire } from 'node:module';
import { decodeBytes } from './charset.js';
import type { HeaderLine } from './header-fields.js';

/** One entry of nodemailer's address parser (a mailbox, or a group of mailboxes). */
export interface ParsedAddress {
  name: string;
  address?: string;
  group?: ParsedAddress[];
}

export interface SimpleMessage {
  /** the top-level header fields as mailsplit keeps them (lower-case key, whole binary line) */
  headerLines: HeaderLine[];
  /** what mailparser's header map holds for these fields (undefined: no entry) */
  subject: string | undefined;
  /** the last From field's mailboxes (mailparser keeps one From) */
  from: ParsedAddress[] | undefined;
  /** every To (Cc) field's mailboxes, field after field */
  to: ParsedAddress[][];
  cc: ParsedAddress[][];
  /** milliseconds; mailparser reads an invalid Date as the time of parsing */
  date: number | undefined;
  messageId: string | undefined;
  /** mailparser's text and html of the message (undefined: none) */
  text: string | undefined;
  html: string | undefined;
}

export interface SimpleMessageLimits {
  /** mailsplit's maxHeadSize: a bigger header block is mailparser's error, not ours to read */
  maxHeadSize: number;
  /** mailparser's maxHtmlLengthToParse */
  maxHtmlLengthToParse: number;
}

/** Parts of a multipart/alternative read here at most (mailparser's limit is far above). */
const MAX_PARTS = 16;

const requireHere = createRequire(import.meta.url);
let mailparserRequire: NodeJS.Require | undefined;
let mailsplitRequire: NodeJS.Require | undefined;
/** Loads a module as mailparser resolves it, so that the copy (and version) is the one it runs. */
function fromMailparser(id: string): unknown {
  mailparserRequire ??= createRequire(requireHere.resolve('mailparser'));
  return mailparserRequire(id);
}
/** Loads a module as mailsplit (mailparser's splitter) resolves it. */
function fromMailsplit(id: string): unknown {
  mailparserRequire ??= createRequire(requireHere.resolve('mailparser'));
  mailsplitRequire ??= createRequire(mailparserRequire.resolve('@zone-eu/mailsplit'));
  return mailsplitRequire(id);
}

interface Libmime {
  decodeWords(text: string): string;
}
let libmimeModule: Libmime | undefined;
let addressParser: ((value: string) => ParsedAddress[]) | undefined;
let punycodeModule: { toUnicode(domain: string): string } | undefined;
let htmlToTextModule: { htmlToText(html: string): string } | undefined;
let qpModule: { decode(bytes: Buffer): Buffer } | undefined;

function libmime(): Libmime {
  libmimeModule ??= fromMailparser('libmime') as Libmime;
  return libmimeModule;
}
function addressparser(value: string): ParsedAddress[] {
  addressParser ??= fromMailparser('nodemailer/lib/addressparser') as (value: string) => ParsedAddress[];
  return addressParser(value);
}

/** libmime's decodeWords changes only encoded words and its own join marker ("__\0JOIN\0__"). */
function decodeWords(text: string): string {
  return text.includes('=?') || text.includes('\0') ? libmime().decodeWords(text) : text;
}

/** mailsplit's Headers._parseHeaders: folded lines joined with CRLF, keyed by the text before the first colon. */
function headerLinesOf(block: Buffer): HeaderLine[] | null {
  // mailsplit's replace(/[\r\n]+$/, ''), without its backtracking: that regex takes minutes on a
  // header line holding a few hundred thousand bare CRs.
  const text = block.toString('binary');
  let end = text.length;
  while (end > 0 && (text.charCodeAt(end - 1) === 0x0d || text.charCodeAt(end - 1) === 0x0a)) end--;
  const raw = text.slice(0, end).split(/\r?\n/);
  const folds = (line: string) => line.charAt(0) === ' ' || line.charAt(0) === '\t';
  const keyOf = (line: string) =>
    line
      .slice(0, Math.max(line.indexOf(':'), 0))
      .toLowerCase()
      .trim();
  let index = 1;
  let first = raw[0] ?? '';
  while (index < raw.length && folds(raw[index] ?? '')) first += `\r\n${raw[index++]}`;
  // An mbox "From " line or an HTTP POST line opens the block: mailsplit drops it. Not simple.
  if (/^From /i.test(first) || /^POST /i.test(first)) return null;
  const lines: HeaderLine[] = [{ key: keyOf(first), line: first }];
  for (; index < raw.length; index++) {
    const line = raw[index] ?? '';
    const last = lines[lines.length - 1] as HeaderLine;
    if (folds(line)) {
      last.line += `\r\n${line}`;
      if (!last.key) last.key = keyOf(last.line);
    } else {
      lines.push({ key: keyOf(line), line });
    }
  }
  return lines;
}

/**
 * libmime's decodeHeader: the field body unfolded and trimmed ('' for a line without a name).
 * Its /^\s*([^:]+):(.*)$/ matches when the first colon has a character before it (the line is
 * trimmed, and no CR or LF is left for `.` to stop at); found here with one indexOf.
 */
function fieldBody(line: string): string {
  const unfolded = line.replace(/(?:\r?\n|\r)[ \t]*/g, ' ').trim();
  const colon = unfolded.indexOf(':');
  return colon >= 1 ? unfolded.slice(colon + 1).trim() : '';
}

/** The value mailparser's processHeaders starts from: the body's binary string read as UTF-8. */
function mailparserValue(line: string): string {
  return Buffer.from(fieldBody(line), 'binary').toString();
}

/** mailsplit's Headers.getFirst, for an ASCII field (any other is declined before). */
function firstValue(lines: HeaderLine[], key: string): string | null {
  const found = lines.find((line) => line.key === key);
  return found === undefined ? null : fieldBody(found.line);
}

interface ContentType {
  value: string;
  params: Map<string, string>;
}

/**
 * libmime's parseHeaderValue (RFC 2045 section 5.1: `type/subtype; key=value; key="value"`),
 * for the values it reads without RFC 2231 continuations (a key with `*` is declined).
 */
function parseContentType(text: string): ContentType | null {
  const params = new Map<string, string>();
  let result = '';
  let key: string | false = false;
  let value = '';
  let valueEnd = 0;
  let inKey = false;
  let quote = false;
  let escaped = false;
  const commit = () => {
    const collected = value.substring(0, valueEnd);
    value = '';
    valueEnd = 0;
    if (inKey) {
      if (collected) params.set(collected.toLowerCase(), '');
    } else if (key === false) result = collected;
    else params.set(key, collected);
  };
  for (const chr of text) {
    const space = chr === ' ' || chr === '\t';
    if (inKey) {
      if (chr === '=') {
        key = value.substring(0, valueEnd).toLowerCase();
        value = '';
        valueEnd = 0;
        inKey = false;
      } else if (chr === ';') commit();
      else if (space) {
        if (value.length) value += chr;
      } else {
        value += chr;
        valueEnd = value.length;
      }
      continue;
    }
    if (escaped) {
      value += chr;
      valueEnd = value.length;
    } else if (chr === '\\') {
      escaped = true;
      continue;
    } else if (chr === '"') quote = !quote;
    else if (!quote && chr === ';') {
      commit();
      inKey = true;
    } else if (!quote && space) {
      if (value.length) value += chr;
    } else {
      value += chr;
      valueEnd = value.length;
    }
    escaped = false;
  }
  commit();
  for (const name of params.keys()) if (name.includes('*')) return null;
  return { value: result.toLowerCase().trim(), params };
}

/** mailsplit's compareBoundary: 1 for `--boundary`, 2 for `--boundary--` (RFC 2046 section 5.1.1). */
function compareBoundary(line: Buffer, start: number, boundary: Buffer): 1 | 2 | false {
  if (line.length < boundary.length + 3 + start || line.length > boundary.length + 6 + start) return false;
  for (let i = 0; i < boundary.length; i++) if (line[i + 2 + start] !== boundary[i]) return false;
  let pos = 0;
  for (let i = boundary.length + 2 + start; i < line.length; i++) {
    const c = line[i];
    if (pos === 0 && (c === 0x0d || c === 0x0a)) return 1;
    if ((pos === 0 || pos === 1) && c !== 0x2d) return false;
    if (pos === 2 && c !== 0x0d && c !== 0x0a) return false;
    if (pos === 3 && c !== 0x0a) return false;
    pos++;
  }
  return 2;
}

/** mailsplit's checkBoundary for one boundary (a CR or CRLF may precede the dashes). */
function checkBoundary(line: Buffer, boundary: Buffer): 1 | 2 | false {
  let start = 0;
  if (line.length >= 1 && (line[0] === 0x0d || line[0] === 0x0a)) {
    start++;
    if (line.length >= 2 && line[0] === 0x0d && line[1] === 0x0a) start++;
  }
  if (line.length < 4 || line[start] !== 0x2d || line[start + 1] !== 0x2d) return false;
  return compareBoundary(line, start, boundary);
}

/**
 * Where the header block ends: after the first line that is only LF or CRLF (mailsplit's test),
 * or -1 when there is none. Walks the line ends of the header only, never the body.
 */
function headerEnd(bytes: Buffer, from: number): number {
  let lineStart = from;
  while (lineStart < bytes.length) {
    if (bytes[lineStart] === 0x0a) return lineStart + 1;
    if (bytes[lineStart] === 0x0d && bytes[lineStart + 1] === 0x0a) return lineStart + 2;
    const newline = bytes.indexOf(0x0a, lineStart);
    if (newline < 0) return -1;
    lineStart = newline + 1;
  }
  return -1;
}

interface Leaf {
  contentType: 'text/plain' | 'text/html';
  /** the label TextPartDecoder gets ('' to sniff) */
  label: string;
  encoding: 'identity' | 'quoted-printable' | 'base64';
}

/** A part's headers as mailsplit's MimeNode.parseHeaders reads them, for the types read here. */
function describePart(
  lines: HeaderLine[],
): { type: string; params: Map<string, string>; encoding: string } | null {
  for (const line of lines) {
    if (line.key === 'content-disposition') return null;
    if (
      (line.key === 'content-type' || line.key === 'content-transfer-encoding') &&
      /[^\x20-\x7e\t\r\n]/.test(line.line)
    )
      return null;
  }
  const rawType = firstValue(lines, 'content-type');
  const parsed = parseContentType(rawType ?? 'text/plain');
  if (parsed === null || parsed.value === '') return null;
  const cte = firstValue(lines, 'content-transfer-encoding') ?? '';
  if (cte.includes('(')) return null;
  return { type: parsed.value, params: parsed.params, encoding: cte.toLowerCase().trim() };
}

function leafOf(lines: HeaderLine[]): Leaf | null {
  const part = describePart(lines);
  if (part === null || (part.type !== 'text/plain' && part.type !== 'text/html')) return null;
  // mailsplit splits any part with a boundary parameter, text or not; and format=flowed text goes
  // through mailsplit's FlowedDecoder (RFC 3676), not reproduced here.
  if (part.params.has('boundary') || part.params.get('format')?.toLowerCase().trim() === 'flowed')
    return null;
  let encoding: Leaf['encoding'];
  if (part.encoding === 'quoted-printable' || part.encoding === 'base64') encoding = part.encoding;
  else if (['', '7bit', '8bit', 'binary'].includes(part.encoding)) encoding = 'identity';
  else return null;
  // Youju's createMailParser: a missing, ASCII or UTF-8 label is sniffed.
  const label = part.params.get('charset') ?? '';
  const normalized = label.toLowerCase().replace(/[^a-z0-9]/g, '');
  const sniff =
    normalized === '' || normalized === 'utf8' || normalized === 'ascii' || normalized === 'usascii';
  return { contentType: part.type, label: sniff ? '' : label, encoding };
}

/**
 * A part's text as mailparser gets it: the transfer encoding undone (libbase64's and libqp's
 * stream decoders), the charset read by TextPartDecoder (charset.ts), line ends made LF. `writes`
 * are the pieces mailsplit hands the decoder. Null when the result could depend on how the
 * pieces are cut.
 */
function partText(writes: Buffer[], leaf: Leaf): string | null {
  const body = writes.length === 1 ? (writes[0] as Buffer) : Buffer.concat(writes);
  let bytes: Buffer;
  if (leaf.encoding === 'base64') {
    // The stream decoder reads bytes as 'ascii' (high bit dropped) and decodes up to the last
    // padding per write: with padding only at the very end, the cut of the writes cannot matter.
    if (!isAscii(body)) return null;
    const clean = body.toString('latin1').replace(/[^a-zA-Z0-9+/=]/g, '');
    if (/=[^=]/.test(clean)) return null;
    bytes = Buffer.from(clean, 'base64');
  } else if (leaf.encoding === 'quoted-printable') {
    // libqp's Decoder gathers every write and decodes once.
    qpModule ??= fromMailsplit('libqp') as { decode(bytes: Buffer): Buffer };
    bytes = body.length === 0 ? body : qpModule.decode(body);
  } else {
    bytes = body;
  }
  let text = decodeBytes(bytes, leaf.label);
  // TextPartDecoder hands mailparser UTF-8 bytes: a lone surrogate (iconv's UTF-7) becomes U+FFFD.
  if (/[\uD800-\uDFFF]/.test(text)) text = Buffer.from(text, 'utf8').toString('utf8');
  // mailparser's replace(/\r?\n/g, '\n'), which only ever changes a CRLF
  return text.includes('\r') ? text.replaceAll('\r\n', '\n') : text;
}

/** mailparser's hasBracketedAddress: `<…@…>` in a decoded display name. */
function hasBracketedAddress(text: string): boolean {
  let start = -1;
  let at = -1;
  for (let i = 0; i < text.length; i++) {
    const chr = text.charAt(i);
    if (chr === '<') {
      start = i;
      at = -1;
    } else if (chr === '>') {
      if (start >= 0 && at >= 0 && at < i - 1) return true;
      start = -1;
      at = -1;
    } else if (chr === '@' && start >= 0 && at < 0 && i > start + 1) at = i;
  }
  return false;
}

/** mailparser's decodeAddresses (RFC 2047 section 5: encoded words in names, never in addresses). */
function decodeAddresses(addresses: ParsedAddress[], processed = new WeakSet<ParsedAddress>()): void {
  for (let i = 0; i < addresses.length; i++) {
    const address = addresses[i] as ParsedAddress;
    address.name = (address.name || '').toString().trim();
    if (
      !address.address &&
      /^(=\?([^?]+)\?[Bb]\?[^?]*\?=)(\s*=\?([^?]+)\?[Bb]\?[^?]*\?=)*$/.test(address.name) &&
      !processed.has(address)
    ) {
      const decoded = libmime().decodeWords(address.name);
      if (hasBracketedAddress(decoded)) {
        for (const entry of addressparser(decoded)) {
          processed.add(entry);
          addresses.push(entry);
        }
        addresses.splice(i, 1);
        i--;
      } else {
        address.name = decoded;
      }
      continue;
    }
    if (address.name) {
      try {
        address.name = decodeWords(address.name);
      } catch {
        // mailparser keeps the name as it is
      }
    }
    if (address.address && /[=]\?[^?]+\?[BbQq]\?[^?]*\?[=]/.test(address.address)) {
      try {
        const decoded = libmime().decodeWords(address.address);
        address.address = /^[^\s@]+@[^\s@]+$/.test(decoded) && !/[=]\?/.test(decoded) ? decoded : '';
      } catch {
        address.address = '';
      }
    }
    if (address.address && /@xn--/.test(address.address)) {
      try {
        punycodeModule ??= fromMailparser('punycode.js') as { toUnicode(domain: string): string };
        const at = address.address.lastIndexOf('@');
        address.address =
          address.address.slice(0, at + 1) + punycodeModule.toUnicode(address.address.slice(at + 1));
      } catch {
        // not punycode: kept as it is
      }
    }
    if (address.group) decodeAddresses(address.group);
  }
}

/** mailparser's processHeaders for the fields Youju reads. */
function readFields(
  lines: HeaderLine[],
): Pick<SimpleMessage, 'subject' | 'from' | 'to' | 'cc' | 'date' | 'messageId'> {
  const fields: Pick<SimpleMessage, 'subject' | 'from' | 'to' | 'cc' | 'date' | 'messageId'> = {
    subject: undefined,
    from: undefined,
    to: [],
    cc: [],
    date: undefined,
    messageId: undefined,
  };
  for (const line of lines) {
    switch (line.key) {
      case 'subject': {
        let value = mailparserValue(line.line);
        try {
          value = decodeWords(value);
        } catch {
          // mailparser keeps the subject as it is
        }
        // a field that reads empty adds nothing, so an earlier Subject stands
        if (value) fields.subject = value;
        break;
      }
      case 'date': {
        const date = new Date(mailparserValue(line.line));
        fields.date = Number.isNaN(date.getTime()) ? Date.now() : date.getTime();
        break;
      }
      case 'message-id': {
        let value = mailparserValue(line.line);
        try {
          value = decodeWords(value);
        } catch {
          // kept as it is
        }
        if (value.length) {
          if (value.charAt(0) !== '<') value = `<${value}`;
          if (value.charAt(value.length - 1) !== '>') value += '>';
          fields.messageId = value;
        }
        break;
      }
      case 'from':
      case 'to':
      case 'cc': {
        const addresses = addressparser(mailparserValue(line.line));
        decodeAddresses(addresses);
        if (line.key === 'from') fields.from = addresses;
        else fields[line.key].push(addresses);
        break;
      }
    }
  }
  return fields;
}

/** What mailsplit hands the decoder of each part of a multipart/alternative, or null. */
function alternativeParts(bytes: Buffer, start: number, boundaryText: string, limits: SimpleMessageLimits) {
  const boundary = Buffer.from(boundaryText);
  const parts: { lines: HeaderLine[]; writes: Buffer[] }[] = [];
  type State = 'preamble' | 'head' | 'body' | 'epilogue';
  let state: State = 'preamble';
  let headStart = 0;
  let bodyStart = 0;
  let bodyLines = 0;
  let firstBodyLine: Buffer | null = null;
  let lineStart = start;
  // mailsplit's group logic: the line end before a delimiter belongs to the delimiter; before the
  // next part's delimiter a body that is one empty line is handed over whole, before the closing
  // one it is dropped.
  const finishBody = (end: number, closing: boolean): void => {
    const part = parts[parts.length - 1];
    if (part === undefined || bodyLines === 0) return;
    let trimmed = end;
    if (trimmed > bodyStart && bytes[trimmed - 1] === 0x0a) {
      trimmed--;
      if (trimmed > bodyStart && bytes[trimmed - 1] === 0x0d) trimmed--;
    }
    if (trimmed > bodyStart) part.writes.push(bytes.subarray(bodyStart, trimmed));
    else if (!closing && firstBodyLine) part.writes.push(firstBodyLine);
  };
  while (lineStart < bytes.length) {
    const newline = bytes.indexOf(0x0a, lineStart);
    const lineEnd = newline < 0 ? bytes.length : newline + 1;
    const line = bytes.subarray(lineStart, lineEnd);
    if (state !== 'epilogue') {
      const delimiter = checkBoundary(line, boundary);
      if (delimiter === 2 && state === 'preamble') return null;
      if (delimiter !== false) {
        if (state === 'head') return null;
        if (state === 'body') finishBody(lineStart, delimiter === 2);
        if (delimiter === 2) state = 'epilogue';
        else {
          if (parts.length >= MAX_PARTS) return null;
          parts.push({ lines: [], writes: [] });
          state = 'head';
          headStart = lineEnd;
        }
        lineStart = lineEnd;
        continue;
      }
      if (state === 'head') {
        if (lineEnd - headStart > limits.maxHeadSize - 8) return null;
        // mailsplit ends a header block at a line that is only LF or CRLF
        if (
          (line.length === 1 && line[0] === 0x0a) ||
          (line.length === 2 && line[0] === 0x0d && line[1] === 0x0a)
        ) {
          const lines = headerLinesOf(bytes.subarray(headStart, lineEnd));
          if (lines === null) return null;
          (parts[parts.length - 1] as { lines: HeaderLine[] }).lines = lines;
          state = 'body';
          bodyStart = lineEnd;
          bodyLines = 0;
          firstBodyLine = null;
        }
      } else if (state === 'body') {
        if (bodyLines++ === 0) firstBodyLine = line;
      }
    }
    lineStart = lineEnd;
  }
  // No closing delimiter: mailsplit hands over the last body differently; not simple.
  if (state !== 'epilogue' || parts.length === 0) return null;
  return parts;
}

/**
 * Reads a message whose structure is simple (see the file comment), or returns null for
 * mailparser to read it.
 */
export function parseSimpleMessage(bytes: Buffer, limits: SimpleMessageLimits): SimpleMessage | null {
  const end = headerEnd(bytes, 0);
  const headLength = end < 0 ? bytes.length : end;
  if (headLength > limits.maxHeadSize - 8) return null;
  const headerLines = headerLinesOf(bytes.subarray(0, headLength));
  if (headerLines === null) return null;
  const root = describePart(headerLines);
  if (root === null) return null;

  const texts: string[] = [];
  const htmls: string[] = [];
  if (root.type === 'multipart/alternative') {
    const boundary = root.params.get('boundary');
    if (!boundary || end < 0 || !['', '7bit', '8bit', 'binary'].includes(root.encoding)) return null;
    const parts = alternativeParts(bytes, end, boundary, limits);
    if (parts === null) return null;
    for (const part of parts) {
      const leaf = leafOf(part.lines);
      if (leaf === null) return null;
      const text = partText(part.writes, leaf);
      if (text === null) return null;
      // mailparser skips a part that decodes to nothing; in an alternative, HTML stays HTML.
      if (text) (leaf.contentType === 'text/plain' ? texts : htmls).push(text);
    }
  } else {
    const leaf = leafOf(headerLines);
    if (leaf === null) return null;
    const text = partText(end < 0 ? [] : [bytes.subarray(end)], leaf);
    if (text === null) return null;
    if (text && leaf.contentType === 'text/plain') texts.push(text);
    else if (text) {
      // An HTML-only message: mailparser derives the text with html-to-text's defaults.
      if (text.length > limits.maxHtmlLengthToParse) return null;
      htmlToTextModule ??= fromMailparser('html-to-text') as { htmlToText(html: string): string };
      try {
        texts.push(htmlToTextModule.htmlToText(text));
      } catch {
        return null;
      }
      htmls.push(text);
    }
  }
  return {
    headerLines,
    ...readFields(headerLines),
    text: texts.length ? texts.join('\n') : undefined,
    html: htmls.length ? htmls.join('<br/>\n') : undefined,
  };
}
