/**
 * A stored message's MIME tree with the byte ranges IMAP FETCH needs (RFC 3501 section 6.4.5,
 * RFC 9051 section 6.4.5): each part's header and body offsets in the raw bytes, the part numbers
 * of `section-part`, and from them BODY[section] slices, ENVELOPE and BODYSTRUCTURE (through
 * message-structure.ts). Header values stay raw (encoded words intact), as RFC 3501 section 7.4.2
 * wants. The reader is bounded (parts, depth) and never throws on damaged input: what it cannot
 * follow becomes a leaf.
 */
import type { Section } from './fetch-attributes.js';
import type { AddressEntry, BodyPart, Envelope, HeaderText } from './message-structure.js';

export interface MimeNode {
  /** offset of the part's first header byte */
  headerStart: number;
  /** offset of its body (after the blank line) */
  bodyStart: number;
  /** offset after its body */
  bodyEnd: number;
  type: string;
  subtype: string;
  parameters: Record<string, string>;
  children: MimeNode[];
  /** message/rfc822 (and message/global): the message inside */
  message: MimeNode | null;
}

export const MIME_LIMITS = { maxParts: 500, maxDepth: 20 };

interface Budget {
  parts: number;
}

/** One header field: name (as written) and raw value, unfolded. */
export interface HeaderField {
  name: string;
  value: string;
}

/** Where the header block of `raw[start..end)` ends: offsets of the blank line and of the body. */
function headerEnd(raw: Buffer, start: number, end: number): { blank: number; body: number } {
  let position = start;
  while (position < end) {
    const lf = raw.indexOf(0x0a, position);
    if (lf === -1 || lf >= end) return { blank: end, body: end };
    const lineLength = lf - position - (lf > position && raw[lf - 1] === 0x0d ? 1 : 0);
    if (lineLength === 0) return { blank: position, body: lf + 1 };
    position = lf + 1;
  }
  return { blank: end, body: end };
}

/** The fields of a header block, unfolded (RFC 5322 section 2.2.3), values as latin1-safe text. */
export function headerFields(block: Buffer): HeaderField[] {
  const text = block.toString('latin1');
  const fields: HeaderField[] = [];
  for (const line of text.split(/\r?\n(?![ \t])/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    fields.push({
      name: line.slice(0, colon).trim(),
      value: line
        .slice(colon + 1)
        .replace(/\r?\n/g, '')
        .trim(),
    });
  }
  return fields;
}

function field(fields: HeaderField[], name: string): string | null {
  const lower = name.toLowerCase();
  return fields.find((f) => f.name.toLowerCase() === lower)?.value ?? null;
}

/** `type/subtype; name=value; name="value"` (RFC 2045 section 5.1), names lower-cased. */
export function parseContentType(value: string | null): {
  type: string;
  subtype: string;
  parameters: Record<string, string>;
} {
  const [head = '', ...rest] = splitParameters(value ?? '');
  const match = /^\s*([^/\s;]+)\s*\/\s*([^\s;]+)/.exec(head);
  const parameters = parametersOf(rest);
  if (!match) return { type: 'text', subtype: 'plain', parameters };
  return {
    type: (match[1] as string).toLowerCase(),
    subtype: (match[2] as string).toLowerCase(),
    parameters,
  };
}

function splitParameters(value: string): string[] {
  const pieces: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const char = value[i] as string;
    if (char === '\\' && quoted && i + 1 < value.length) {
      current += char + (value[i + 1] as string);
      i++;
    } else if (char === '"') {
      quoted = !quoted;
      current += char;
    } else if (char === ';' && !quoted) {
      pieces.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  pieces.push(current);
  return pieces;
}

function parametersOf(pieces: string[]): Record<string, string> {
  const parameters: Record<string, string> = {};
  for (const piece of pieces) {
    const equals = piece.indexOf('=');
    if (equals <= 0) continue;
    const name = piece.slice(0, equals).trim().toLowerCase();
    let value = piece.slice(equals + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) {
      value = value.slice(1, -1).replace(/\\(.)/g, '$1');
    }
    if (name && !(name in parameters)) parameters[name] = value;
  }
  return parameters;
}

/** Reads the MIME tree of `raw` (a whole message). */
export function parseMimeTree(raw: Buffer): MimeNode {
  return parsePart(raw, 0, raw.length, 0, { parts: 0 }, null);
}

function parsePart(
  raw: Buffer,
  start: number,
  end: number,
  depth: number,
  budget: Budget,
  defaultType: { type: string; subtype: string } | null,
): MimeNode {
  budget.parts++;
  const { blank, body } = headerEnd(raw, start, end);
  const fields = headerFields(raw.subarray(start, blank));
  const contentTypeValue = field(fields, 'content-type');
  const contentType =
    contentTypeValue === null && defaultType
      ? { ...defaultType, parameters: {} }
      : parseContentType(contentTypeValue);
  const node: MimeNode = {
    headerStart: start,
    bodyStart: body,
    bodyEnd: end,
    ...contentType,
    children: [],
    message: null,
  };
  const deeper = depth < MIME_LIMITS.maxDepth && budget.parts < MIME_LIMITS.maxParts;
  if (node.type === 'multipart' && node.parameters.boundary && deeper) {
    const childDefault = node.subtype === 'digest' ? { type: 'message', subtype: 'rfc822' } : null;
    for (const [partStart, partEnd] of multipartBodies(raw, body, end, node.parameters.boundary)) {
      if (budget.parts >= MIME_LIMITS.maxParts) break;
      node.children.push(parsePart(raw, partStart, partEnd, depth + 1, budget, childDefault));
    }
  } else if (node.type === 'message' && (node.subtype === 'rfc822' || node.subtype === 'global') && deeper) {
    const encoding = (field(fields, 'content-transfer-encoding') ?? '7bit').toLowerCase();
    if (!['base64', 'quoted-printable'].includes(encoding)) {
      node.message = parsePart(raw, body, end, depth + 1, budget, null);
    }
  }
  return node;
}

/** The byte ranges of the body parts between `--boundary` lines (RFC 2046 section 5.1.1). */
function multipartBodies(raw: Buffer, start: number, end: number, boundary: string): Array<[number, number]> {
  const delimiter = Buffer.from(`--${boundary}`, 'latin1');
  const ranges: Array<[number, number]> = [];
  let partStart = -1;
  let position = start;
  while (position < end) {
    const found = raw.indexOf(delimiter, position);
    if (found === -1 || found >= end) break;
    const atLineStart = found === start || raw[found - 1] === 0x0a;
    if (!atLineStart) {
      position = found + 1;
      continue;
    }
    // The CRLF before the delimiter belongs to it.
    let contentEnd = found;
    if (contentEnd > start && raw[contentEnd - 1] === 0x0a) contentEnd--;
    if (contentEnd > start && raw[contentEnd - 1] === 0x0d) contentEnd--;
    if (partStart !== -1) ranges.push([partStart, Math.max(partStart, contentEnd)]);
    const after = found + delimiter.length;
    const closing = raw[after] === 0x2d && raw[after + 1] === 0x2d;
    const lineEnd = raw.indexOf(0x0a, after);
    if (closing || lineEnd === -1 || lineEnd >= end) return ranges;
    partStart = lineEnd + 1;
    position = partStart;
  }
  if (partStart !== -1 && partStart < end) ranges.push([partStart, end]);
  return ranges;
}

/** The node a part path names (`1.2`): through multiparts by index, into embedded messages. */
export function findPart(root: MimeNode, path: number[]): MimeNode | null {
  let node: MimeNode = root;
  for (const number of path) {
    // A message/rfc822 part's numbers go on inside the message it holds.
    const container: MimeNode = node.message ?? node;
    if (container.type === 'multipart') {
      const child = container.children[number - 1];
      if (!child) return null;
      node = child;
    } else {
      // A single-part body (or the message a message/rfc822 part holds) is its own part 1.
      if (number !== 1) return null;
      node = container;
    }
  }
  return node;
}

/**
 * The bytes of `BODY[section]` (RFC 3501 section 6.4.5), or null when the part does not exist
 * (the client gets an empty string, as servers commonly answer).
 */
export function sectionBytes(raw: Buffer, root: MimeNode, section: Section): Buffer | null {
  const part = section.part.length === 0 ? root : findPart(root, section.part);
  if (!part) return null;
  if (section.text === null) {
    if (section.part.length === 0) return raw;
    // BODY[n] of a message/rfc822 part is the whole message inside; else the part's body.
    return raw.subarray(part.bodyStart, part.bodyEnd);
  }
  if (section.text === 'MIME') return raw.subarray(part.headerStart, part.bodyStart);
  // HEADER and TEXT of a part name the message inside a message/rfc822 part.
  const message = section.part.length === 0 ? root : part.message;
  if (!message) return null;
  if (section.text === 'TEXT') return raw.subarray(message.bodyStart, message.bodyEnd);
  const block = raw.subarray(message.headerStart, message.bodyStart);
  if (section.text === 'HEADER') return block;
  const wanted = new Set(section.fields.map((name) => name.toUpperCase()));
  const keep = section.text === 'HEADER.FIELDS';
  const lines = block.toString('latin1').split(/\r?\n(?![ \t])/);
  const picked = lines.filter((line) => {
    const colon = line.indexOf(':');
    if (colon <= 0) return false;
    return wanted.has(line.slice(0, colon).trim().toUpperCase()) === keep;
  });
  return Buffer.from(`${picked.map((line) => `${line.replace(/\r?\n$/, '')}\r\n`).join('')}\r\n`, 'latin1');
}

/** Raw header text: 8-bit bytes (UTF-8 headers) kept as bytes. */
function headerText(value: string | null): HeaderText {
  if (value === null || value === '') return null;
  return /[\u0080-\uffff]/.test(value) ? Buffer.from(value, 'latin1') : value;
}

/** The ENVELOPE of a message node (RFC 3501 section 7.4.2), header values undecoded. */
export function envelopeOf(raw: Buffer, node: MimeNode): Envelope {
  const fields = headerFields(raw.subarray(node.headerStart, node.bodyStart));
  const addresses = (name: string) => parseAddressList(field(fields, name));
  return {
    date: headerText(field(fields, 'date')),
    subject: headerText(field(fields, 'subject')),
    from: addresses('from'),
    sender: addresses('sender'),
    replyTo: addresses('reply-to'),
    to: addresses('to'),
    cc: addresses('cc'),
    bcc: addresses('bcc'),
    inReplyTo: headerText(field(fields, 'in-reply-to')),
    messageId: headerText(field(fields, 'message-id')),
  };
}

/** BODYSTRUCTURE's description of a node (message-structure.ts writes it). */
export function bodyPartOf(raw: Buffer, node: MimeNode): BodyPart {
  const fields = headerFields(raw.subarray(node.headerStart, node.bodyStart));
  const parameters: Record<string, HeaderText> = {};
  for (const [name, value] of Object.entries(node.parameters)) parameters[name] = headerText(value);
  const dispositionValue = field(fields, 'content-disposition');
  const [dispositionType = '', ...dispositionRest] = splitParameters(dispositionValue ?? '');
  const dispositionParameters: Record<string, HeaderText> = {};
  for (const [name, value] of Object.entries(parametersOf(dispositionRest))) {
    dispositionParameters[name] = headerText(value);
  }
  const language = field(fields, 'content-language');
  const common = {
    type: node.type,
    subtype: node.subtype,
    parameters,
    id: headerText(field(fields, 'content-id')),
    description: headerText(field(fields, 'content-description')),
    md5: headerText(field(fields, 'content-md5')),
    disposition: dispositionValue
      ? { type: dispositionType.trim() || 'attachment', parameters: dispositionParameters }
      : null,
    language: language
      ? language
          .split(',')
          .map((tag) => tag.trim())
          .filter(Boolean)
      : null,
    location: headerText(field(fields, 'content-location')),
  };
  if (node.type === 'multipart') {
    return { ...common, children: node.children.map((child) => bodyPartOf(raw, child)) };
  }
  const body = raw.subarray(node.bodyStart, node.bodyEnd);
  const part: BodyPart = {
    ...common,
    encoding: (field(fields, 'content-transfer-encoding') ?? '7BIT').trim(),
    size: body.length,
    lines: countLines(body),
  };
  if (node.message)
    part.message = { envelope: envelopeOf(raw, node.message), body: bodyPartOf(raw, node.message) };
  return part;
}

function countLines(body: Buffer): number {
  if (body.length === 0) return 0;
  let lines = 0;
  for (let index = body.indexOf(0x0a); index !== -1; index = body.indexOf(0x0a, index + 1)) lines++;
  return body[body.length - 1] === 0x0a ? lines : lines + 1;
}

/**
 * An address list (RFC 5322 section 3.4) read leniently: `Name <a@b>`, `a@b`, groups `g: a@b;`.
 * Names keep their quotes removed but encoded words intact.
 */
export function parseAddressList(value: string | null): AddressEntry[] {
  if (value === null || value.trim() === '') return [];
  const entries: AddressEntry[] = [];
  let group: { group: HeaderText; members: ReturnType<typeof parseMailbox>[] } | null = null;
  for (const token of splitAddresses(value)) {
    let text = token.text.trim();
    if (group === null) {
      const colon = groupColon(text);
      if (colon !== -1) {
        group = { group: headerText(unquote(text.slice(0, colon).trim())), members: [] };
        text = text.slice(colon + 1).trim();
      }
    }
    let closes = false;
    if (group !== null && text.endsWith(';')) {
      closes = true;
      text = text.slice(0, -1).trim();
    }
    const mailbox = text ? parseMailbox(text) : null;
    if (group !== null) {
      if (mailbox) group.members.push(mailbox);
      if (closes) {
        entries.push({ group: group.group, members: group.members.filter((m) => m !== null) });
        group = null;
      }
    } else if (mailbox) {
      entries.push(mailbox);
    }
  }
  if (group !== null) entries.push({ group: group.group, members: group.members.filter((m) => m !== null) });
  return entries;
}

/** The colon of `group:` outside quotes and angle brackets, or -1. */
function groupColon(text: string): number {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '<' || char === '@')) return -1;
    else if (!quoted && char === ':') return i;
  }
  return -1;
}

function splitAddresses(value: string): { text: string }[] {
  const pieces: { text: string }[] = [];
  let current = '';
  let quoted = false;
  let angle = 0;
  let comment = 0;
  for (let i = 0; i < value.length && pieces.length < 1000; i++) {
    const char = value[i] as string;
    if (char === '\\' && i + 1 < value.length) {
      current += char + (value[i + 1] as string);
      i++;
      continue;
    }
    if (char === '"' && comment === 0) quoted = !quoted;
    else if (!quoted && char === '(') comment++;
    else if (!quoted && char === ')' && comment > 0) comment--;
    else if (!quoted && comment === 0 && char === '<') angle++;
    else if (!quoted && comment === 0 && char === '>' && angle > 0) angle--;
    if (char === ',' && !quoted && angle === 0 && comment === 0) {
      pieces.push({ text: current });
      current = '';
    } else if (char === ';' && !quoted && angle === 0 && comment === 0) {
      pieces.push({ text: `${current};` });
      current = '';
    } else {
      current += char;
    }
  }
  if (current.trim()) pieces.push({ text: current });
  return pieces;
}

function unquote(text: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith('"') && trimmed.endsWith('"') && trimmed.length >= 2) {
    return trimmed.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return trimmed;
}

function parseMailbox(text: string): { name: HeaderText; mailbox: HeaderText; host: HeaderText } | null {
  const angle = /<([^>]*)>/.exec(text);
  let address: string;
  let name: string | null = null;
  if (angle) {
    address = (angle[1] as string).trim();
    name = unquote(text.slice(0, angle.index)).trim() || null;
  } else {
    const comment = /\(([^)]*)\)/.exec(text);
    address = text.replace(/\([^)]*\)/g, '').trim();
    if (comment) name = (comment[1] as string).trim() || null;
  }
  if (!address && !name) return null;
  const at = address.lastIndexOf('@');
  const mailbox = at === -1 ? address : address.slice(0, at);
  const host = at === -1 ? null : address.slice(at + 1);
  return { name: headerText(name), mailbox: headerText(unquote(mailbox) || null), host: headerText(host) };
}

/** The Content-Transfer-Encoding of a node, lower-cased; 7bit when absent (RFC 2045 section 6.1). */
export function transferEncodingOf(raw: Buffer, node: MimeNode): string {
  const fields = headerFields(raw.subarray(node.headerStart, node.bodyStart));
  return (field(fields, 'content-transfer-encoding') ?? '7bit').trim().toLowerCase();
}

/** The identity encodings and the two this server decodes (RFC 2045 section 6). */
const KNOWN_ENCODINGS = new Set(['7bit', '8bit', 'binary', 'base64', 'quoted-printable']);

export type BinaryContent = { bytes: Buffer } | { unknownEncoding: string } | null;

/**
 * The content of `BINARY[part]` (RFC 3516 section 4.2, RFC 9051 section 6.4.5): a leaf part's body
 * with its Content-Transfer-Encoding undone. The whole message (an empty path), a multipart and a
 * message/rfc822 part may only be 7bit, 8bit or binary (RFC 2045 section 6.4), so they are answered
 * as BODY[part] is, undecoded. Null: no such part. Only the named part is decoded, and the result is
 * never longer than the part's encoded body (itself inside a message the size cap bounds).
 * RFC 2045 section 6.4: an encoding this server does not know is reported, never guessed at.
 */
export function binaryContent(raw: Buffer, root: MimeNode, part: number[], decode = true): BinaryContent {
  if (part.length === 0) return { bytes: raw };
  const node = findPart(root, part);
  if (!node) return null;
  const body = raw.subarray(node.bodyStart, node.bodyEnd);
  if (node.type === 'multipart' || node.message !== null) return { bytes: body };
  const encoding = transferEncodingOf(raw, node);
  if (!KNOWN_ENCODINGS.has(encoding)) return { unknownEncoding: encoding };
  // `decode` false: only whether the encoding is known (checked before any output is written)
  if (!decode) return { bytes: body };
  if (encoding === 'base64') return { bytes: decodeBase64(body) };
  if (encoding === 'quoted-printable') return { bytes: decodeQuotedPrintable(body) };
  return { bytes: body };
}

/** Base64 (RFC 2045 section 6.8): characters outside the alphabet are ignored, as the RFC says. */
export function decodeBase64(body: Buffer): Buffer {
  return Buffer.from(body.toString('latin1').replace(/[^A-Za-z0-9+/]/g, ''), 'base64');
}

function hexValue(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  return -1;
}

/**
 * Quoted-printable (RFC 2045 section 6.7): `=XX` is a byte, `=` at a line end a soft break,
 * trailing blanks on a line dropped (rule 3); a `=` not followed by hex stays as written (the
 * robust reading the RFC suggests for damaged input). One pass over the bytes.
 */
export function decodeQuotedPrintable(body: Buffer): Buffer {
  const out = Buffer.allocUnsafe(body.length);
  let length = 0;
  // blanks before this offset came from `=20`/`=09` or an earlier line and are kept
  let lineStart = 0;
  for (let at = 0; at < body.length; at++) {
    const byte = body[at] as number;
    if (byte === 0x0d || byte === 0x0a) {
      // rule 3: blanks before a line break were added in transport
      while (length > lineStart && (out[length - 1] === 0x20 || out[length - 1] === 0x09)) length--;
      out[length++] = byte;
      if (byte === 0x0a) lineStart = length;
      continue;
    }
    if (byte === 0x3d) {
      const high = hexValue(body[at + 1]);
      const low = hexValue(body[at + 2]);
      if (high !== -1 && low !== -1) {
        out[length++] = high * 16 + low;
        lineStart = length;
        at += 2;
        continue;
      }
      // soft line break: `=`, optional blanks, CRLF or LF
      let next = at + 1;
      while (body[next] === 0x20 || body[next] === 0x09) next++;
      if (body[next] === 0x0d && body[next + 1] === 0x0a) {
        at = next + 1;
        lineStart = length;
        continue;
      }
      if (body[next] === 0x0a || next >= body.length) {
        at = next;
        lineStart = length;
        continue;
      }
    }
    out[length++] = byte;
  }
  while (length > lineStart && (out[length - 1] === 0x20 || out[length - 1] === 0x09)) length--;
  return out.subarray(0, length);
}
