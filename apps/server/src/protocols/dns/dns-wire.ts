/**
 * The little of the DNS wire format (RFC 1035 section 4) that an RFC 2136 UPDATE signed with TSIG
 * (RFC 8945) needs: names (RFC 1035 sections 3.1 and 4.1.4), resource records (section 4.1.3), the
 * message header (section 4.1.1), TXT and MX data (sections 3.3.14 and 3.3.9), the UPDATE message
 * (RFC 2136 section 2), and the TSIG signature (RFC 8945 sections 4 and 5).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Bytes that are not a DNS message, or a value that cannot be written as one. */
export class DnsWireError extends Error {
  override readonly name = 'DnsWireError';
}

export const RecordType = { A: 1, MX: 15, TXT: 16, SOA: 6, TSIG: 250, ANY: 255 } as const;
export const RecordClass = { IN: 1, NONE: 254, ANY: 255 } as const;
export const Opcode = { UPDATE: 5 } as const;

/** RCODEs of RFC 1035 4.1.1 and RFC 2136 2.2, and TSIG errors of RFC 8945 section 3. */
export const Rcode = {
  NOERROR: 0,
  FORMERR: 1,
  SERVFAIL: 2,
  NXDOMAIN: 3,
  NOTIMP: 4,
  REFUSED: 5,
  YXDOMAIN: 6,
  YXRRSET: 7,
  NXRRSET: 8,
  NOTAUTH: 9,
  NOTZONE: 10,
  BADSIG: 16,
  BADKEY: 17,
  BADTIME: 18,
  BADTRUNC: 22,
} as const;

/** RFC 1035 section 2.3.4: labels of 63 octets or less, names of 255 octets or less. */
const MAX_LABEL = 63;
const MAX_NAME = 255;
/** RFC 1035 section 4.1.1: the header is 12 octets. */
const HEADER_LENGTH = 12;

/**
 * A name in uncompressed wire form, lower case: the canonical form TSIG signs (RFC 8945 4.3.3).
 * Names are ASCII here (internationalized names arrive as A-labels): any other character would
 * silently become another byte, so it is refused.
 */
export function encodeName(name: string): Buffer {
  const trimmed = name.replace(/\.$/, '').toLowerCase();
  const parts: Buffer[] = [];
  if (trimmed) {
    for (const label of trimmed.split('.')) {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: a label may hold any ASCII octet
      if (!/^[\x00-\x7f]*$/.test(label)) throw new DnsWireError(`non-ASCII DNS label in ${name}`);
      const bytes = Buffer.from(label, 'ascii');
      if (bytes.length === 0 || bytes.length > MAX_LABEL)
        throw new DnsWireError(`invalid DNS label in ${name}`);
      parts.push(Buffer.from([bytes.length]), bytes);
    }
  }
  parts.push(Buffer.from([0]));
  const encoded = Buffer.concat(parts);
  if (encoded.length > MAX_NAME) throw new DnsWireError(`DNS name longer than ${MAX_NAME} octets: ${name}`);
  return encoded;
}

/** An unsigned integer of `bytes` octets in network order (RFC 1035 section 2.3.2). */
function unsigned(value: number, bytes: number): Buffer {
  if (!Number.isInteger(value) || value < 0 || value >= 2 ** (8 * bytes)) {
    throw new DnsWireError(`${value} does not fit in ${8 * bytes} bits`);
  }
  const buffer = Buffer.alloc(bytes);
  buffer.writeUIntBE(value, 0, bytes);
  return buffer;
}

const u16 = (value: number) => unsigned(value, 2);
const u32 = (value: number) => unsigned(value, 4);
/** 48-bit seconds since the epoch (RFC 8945 4.2, Time Signed). */
const u48 = (value: number) => unsigned(value, 6);

export interface ResourceRecord {
  name: string;
  type: number;
  class: number;
  ttl: number;
  rdata: Buffer;
}

export function encodeRecord(record: ResourceRecord): Buffer {
  return Buffer.concat([
    encodeName(record.name),
    u16(record.type),
    u16(record.class),
    u32(record.ttl),
    u16(record.rdata.length),
    record.rdata,
  ]);
}

/** TXT RDATA (RFC 1035 3.3.14): character-strings of at most 255 bytes each. */
export function txtRdata(text: string | readonly string[]): Buffer {
  const chunks: Buffer[] = [];
  const strings = typeof text === 'string' ? splitTxt(text) : text;
  for (const string of strings) {
    const bytes = Buffer.from(string, 'utf8');
    if (bytes.length > 255) throw new DnsWireError('TXT character-string longer than 255 bytes');
    chunks.push(Buffer.from([bytes.length]), bytes);
  }
  return Buffer.concat(chunks);
}

/**
 * A long TXT value (a 2048-bit DKIM key is ~400 bytes) becomes several character-strings of at
 * most 255 bytes of UTF-8 each, cut between characters (for ASCII: every 255 characters).
 */
export function splitTxt(text: string): string[] {
  const strings: string[] = [];
  let current = '';
  let bytes = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char, 'utf8');
    if (bytes + size > 255) {
      strings.push(current);
      current = '';
      bytes = 0;
    }
    current += char;
    bytes += size;
  }
  if (current || strings.length === 0) strings.push(current);
  return strings;
}

export function mxRdata(preference: number, exchange: string): Buffer {
  return Buffer.concat([u16(preference), encodeName(exchange)]);
}

export interface UpdateMessage {
  id: number;
  zone: string;
  updates: ResourceRecord[];
}

/**
 * An UPDATE message without TSIG (RFC 2136 section 2): header with opcode 5, the zone section
 * (zone name, SOA, IN), no prerequisites, the update section, and an empty additional section.
 */
export function encodeUpdate(message: UpdateMessage): Buffer {
  const header = Buffer.concat([
    u16(message.id),
    u16(Opcode.UPDATE << 11),
    u16(1),
    u16(0),
    u16(message.updates.length),
    u16(0),
  ]);
  const zone = Buffer.concat([encodeName(message.zone), u16(RecordType.SOA), u16(RecordClass.IN)]);
  return Buffer.concat([header, zone, ...message.updates.map(encodeRecord)]);
}

export const TsigHmac: Record<string, string> = {
  'hmac-sha1': 'sha1',
  'hmac-sha224': 'sha224',
  'hmac-sha256': 'sha256',
  'hmac-sha384': 'sha384',
  'hmac-sha512': 'sha512',
};

export interface TsigKey {
  name: string;
  algorithm: string;
  secret: Buffer;
}

/** The TSIG variables of RFC 8945 section 4.3.3, in the order the MAC covers them. */
function tsigVariables(
  key: TsigKey,
  timeSigned: number,
  fudge: number,
  error: number,
  other: Buffer,
): Buffer {
  return Buffer.concat([
    encodeName(key.name),
    u16(RecordClass.ANY),
    u32(0),
    encodeName(key.algorithm),
    u48(timeSigned),
    u16(fudge),
    u16(error),
    u16(other.length),
    other,
  ]);
}

function hmac(key: TsigKey, ...parts: Buffer[]): Buffer {
  const digest = TsigHmac[key.algorithm];
  if (!digest) throw new DnsWireError(`unsupported TSIG algorithm ${key.algorithm}`);
  const mac = createHmac(digest, key.secret);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

export const TSIG_FUDGE_SECONDS = 300;

/** The TSIG RR (RFC 8945 section 4.2) appended to the additional section; ARCOUNT grows by one. */
function appendTsig(message: Buffer, key: TsigKey, timeSigned: number, mac: Buffer, error: number): Buffer {
  const rdata = Buffer.concat([
    encodeName(key.algorithm),
    u48(timeSigned),
    u16(TSIG_FUDGE_SECONDS),
    u16(mac.length),
    mac,
    message.subarray(0, 2),
    u16(error),
    u16(0),
  ]);
  const tsig = encodeRecord({ name: key.name, type: RecordType.TSIG, class: RecordClass.ANY, ttl: 0, rdata });
  const signed = Buffer.concat([message, tsig]);
  signed.writeUInt16BE(signed.readUInt16BE(10) + 1, 10);
  return signed;
}

function requireHeader(message: Buffer): void {
  if (message.length < HEADER_LENGTH) throw new DnsWireError('DNS message shorter than its header');
}

/**
 * Signs a request (RFC 8945 section 4.3.3): the MAC covers the whole message as it stands and the
 * TSIG variables; the TSIG RR is appended to the additional section and ARCOUNT grows by one.
 * Returns the signed message and the request MAC, which the response MAC covers (section 4.3.1).
 */
export function signRequest(
  message: Buffer,
  key: TsigKey,
  now = Date.now(),
): { signed: Buffer; mac: Buffer } {
  requireHeader(message);
  const timeSigned = Math.floor(now / 1000);
  const mac = hmac(key, message, tsigVariables(key, timeSigned, TSIG_FUDGE_SECONDS, 0, Buffer.alloc(0)));
  return { signed: appendTsig(message, key, timeSigned, mac, 0), mac };
}

/**
 * Signs a response as a server does (RFC 8945 section 4.3.1): the MAC covers the request MAC with
 * its length, the response and the TSIG variables. The client side of this program never answers;
 * this is the counterpart verifyResponse is checked against.
 */
export function signResponse(message: Buffer, key: TsigKey, requestMac: Buffer, now = Date.now()): Buffer {
  requireHeader(message);
  const timeSigned = Math.floor(now / 1000);
  const mac = hmac(
    key,
    u16(requestMac.length),
    requestMac,
    message,
    tsigVariables(key, timeSigned, TSIG_FUDGE_SECONDS, 0, Buffer.alloc(0)),
  );
  return appendTsig(message, key, timeSigned, mac, 0);
}

/** Fails with a DnsWireError, never a RangeError or a silent zero, when `length` octets at `at` are not there. */
function need(buffer: Buffer, at: number, length: number, what: string): void {
  if (at + length > buffer.length) throw new DnsWireError(`truncated ${what}`);
}

function read16(buffer: Buffer, at: number, what: string): number {
  need(buffer, at, 2, what);
  return buffer.readUInt16BE(at);
}

/**
 * Reads a name (RFC 1035 section 4.1.4): labels ending in a zero octet or in a pointer to an earlier
 * occurrence. Each pointer must point before the previous one's target (before the name itself for
 * the first), so a name cannot loop; `end` is the offset after the name where it was found.
 */
export function decodeName(buffer: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let position = offset;
  let end = -1;
  let limit = offset;
  let octets = 1;
  for (;;) {
    need(buffer, position, 1, 'name');
    const size = buffer.readUInt8(position);
    if (size === 0) break;
    if ((size & 0xc0) === 0xc0) {
      const pointer = read16(buffer, position, 'name') & 0x3fff;
      if (end < 0) end = position + 2;
      if (pointer >= limit) throw new DnsWireError('name pointer does not point backwards');
      limit = pointer;
      position = pointer;
      continue;
    }
    // 0x40 and 0x80 are the extended label types of RFC 6891 section 4.2 (obsolete, RFC 6891 5).
    if ((size & 0xc0) !== 0) throw new DnsWireError('unknown label type');
    need(buffer, position + 1, size, 'label');
    octets += size + 1;
    if (octets > MAX_NAME) throw new DnsWireError(`name longer than ${MAX_NAME} octets`);
    labels.push(buffer.toString('latin1', position + 1, position + 1 + size));
    position += size + 1;
  }
  return { name: labels.join('.'), end: end < 0 ? position + 1 : end };
}

export interface DecodedRecord extends ResourceRecord {
  /** where the record starts in the message */
  start: number;
  /** where its RDATA starts */
  rdataStart: number;
}

/** One resource record (RFC 1035 section 4.1.3); RDATA is returned as it is, names in it unread. */
export function decodeRecord(buffer: Buffer, offset: number): { record: DecodedRecord; end: number } {
  const { name, end: fixed } = decodeName(buffer, offset);
  need(buffer, fixed, 10, 'resource record');
  const rdataLength = buffer.readUInt16BE(fixed + 8);
  const rdataStart = fixed + 10;
  need(buffer, rdataStart, rdataLength, 'RDATA');
  return {
    record: {
      name,
      type: buffer.readUInt16BE(fixed),
      class: buffer.readUInt16BE(fixed + 2),
      ttl: buffer.readUInt32BE(fixed + 4),
      rdata: buffer.subarray(rdataStart, rdataStart + rdataLength),
      start: offset,
      rdataStart,
    },
    end: rdataStart + rdataLength,
  };
}

/** TXT RDATA (RFC 1035 3.3.14) read back: its character-strings, as UTF-8. */
export function decodeTxtRdata(rdata: Buffer): string[] {
  const strings: string[] = [];
  for (let at = 0; at < rdata.length; ) {
    const length = rdata.readUInt8(at);
    need(rdata, at + 1, length, 'TXT character-string');
    strings.push(rdata.toString('utf8', at + 1, at + 1 + length));
    at += 1 + length;
  }
  return strings;
}

/** MX RDATA (RFC 1035 3.3.9) read back; the exchange is read from the whole message (it may be compressed). */
export function decodeMxRdata(
  message: Buffer,
  record: DecodedRecord,
): { preference: number; exchange: string } {
  const preference = read16(message, record.rdataStart, 'MX preference');
  const exchange = decodeName(message, record.rdataStart + 2);
  if (exchange.end !== record.rdataStart + record.rdata.length) throw new DnsWireError('MX RDATA length');
  return { preference, exchange: exchange.name };
}

export interface Question {
  name: string;
  type: number;
  class: number;
}

/** The sections of a message; in an UPDATE they are zone, prerequisite, update and additional. */
export interface DecodedMessage {
  id: number;
  isResponse: boolean;
  opcode: number;
  truncated: boolean;
  rcode: number;
  questions: Question[];
  answers: DecodedRecord[];
  authorities: DecodedRecord[];
  additionals: DecodedRecord[];
}

/**
 * Reads a whole message (RFC 1035 section 4.1): header, question section, and the three record
 * sections. Octets after the last record are ignored. Throws DnsWireError, and nothing else, on
 * bytes that are not a message.
 */
export function decodeMessage(buffer: Buffer): DecodedMessage {
  requireHeader(buffer);
  const flags = buffer.readUInt16BE(2);
  const [questionCount, answerCount, authorityCount, additionalCount] = [4, 6, 8, 10].map((at) =>
    buffer.readUInt16BE(at),
  ) as [number, number, number, number];
  let offset = HEADER_LENGTH;
  const questions: Question[] = [];
  for (let index = 0; index < questionCount; index += 1) {
    const { name, end } = decodeName(buffer, offset);
    need(buffer, end, 4, 'question');
    questions.push({ name, type: buffer.readUInt16BE(end), class: buffer.readUInt16BE(end + 2) });
    offset = end + 4;
  }
  const section = (count: number) => {
    const records: DecodedRecord[] = [];
    for (let index = 0; index < count; index += 1) {
      const { record, end } = decodeRecord(buffer, offset);
      records.push(record);
      offset = end;
    }
    return records;
  };
  const answers = section(answerCount);
  const authorities = section(authorityCount);
  const additionals = section(additionalCount);
  return {
    id: buffer.readUInt16BE(0),
    isResponse: (flags & 0x8000) !== 0,
    opcode: (flags >> 11) & 0xf,
    truncated: (flags & 0x0200) !== 0,
    rcode: flags & 0xf,
    questions,
    answers,
    authorities,
    additionals,
  };
}

/** An UPDATE read back (RFC 2136 section 2): its zone (section 2.3) and update section (2.5). */
export function decodeUpdate(buffer: Buffer): UpdateMessage {
  const message = decodeMessage(buffer);
  if (message.opcode !== Opcode.UPDATE) throw new DnsWireError('not an UPDATE');
  const zone = message.questions[0];
  // RFC 2136 section 2.3: exactly one zone, of type SOA.
  if (message.questions.length !== 1 || !zone || zone.type !== RecordType.SOA) {
    throw new DnsWireError('UPDATE without exactly one SOA zone');
  }
  return {
    id: message.id,
    zone: zone.name,
    updates: message.authorities.map(({ name, type, class: recordClass, ttl, rdata }) => ({
      name,
      type,
      class: recordClass,
      ttl,
      rdata,
    })),
  };
}

export interface ParsedTsig {
  algorithm: string;
  timeSigned: number;
  fudge: number;
  mac: Buffer;
  originalId: number;
  error: number;
  other: Buffer;
  /** where the TSIG RR starts: the response without it is `message.subarray(0, start)` */
  start: number;
}

export interface ParsedResponse {
  id: number;
  isResponse: boolean;
  truncated: boolean;
  opcode: number;
  rcode: number;
  tsig: ParsedTsig | null;
}

/** TSIG RDATA (RFC 8945 section 4.2), which must fill the record's RDATA exactly. */
function decodeTsig(buffer: Buffer, record: DecodedRecord): ParsedTsig {
  const rdataEnd = record.rdataStart + record.rdata.length;
  const within = (at: number, length: number) => {
    if (at + length > rdataEnd) throw new DnsWireError('truncated TSIG RDATA');
  };
  // The algorithm name is never compressed (RFC 8945 section 4.2).
  const algorithm = decodeName(buffer.subarray(0, rdataEnd), record.rdataStart);
  let at = algorithm.end;
  within(at, 10);
  const timeSigned = buffer.readUIntBE(at, 6);
  const fudge = buffer.readUInt16BE(at + 6);
  const macSize = buffer.readUInt16BE(at + 8);
  at += 10;
  within(at, macSize + 6);
  const mac = buffer.subarray(at, at + macSize);
  at += macSize;
  const originalId = buffer.readUInt16BE(at);
  const error = buffer.readUInt16BE(at + 2);
  const otherLength = buffer.readUInt16BE(at + 4);
  at += 6;
  within(at, otherLength);
  const other = buffer.subarray(at, at + otherLength);
  if (at + otherLength !== rdataEnd) throw new DnsWireError('TSIG RDATA longer than its fields');
  return { algorithm: algorithm.name, timeSigned, fudge, mac, originalId, error, other, start: record.start };
}

/**
 * Parses a message's header and, when present, its TSIG RR: the last record of the additional
 * section (RFC 8945 section 5.1). Throws DnsWireError, and nothing else, on bytes that are not a
 * message.
 */
export function parseResponse(buffer: Buffer): ParsedResponse {
  const message = decodeMessage(buffer);
  const last = message.additionals.at(-1);
  return {
    id: message.id,
    isResponse: message.isResponse,
    truncated: message.truncated,
    opcode: message.opcode,
    rcode: message.rcode,
    tsig: last?.type === RecordType.TSIG ? decodeTsig(buffer, last) : null,
  };
}

/** The message as it was before its TSIG RR was added: without it, ARCOUNT one less, the original ID (RFC 8945 4.3.3). */
function withoutTsig(buffer: Buffer, tsig: ParsedTsig): Buffer {
  const unsigned = Buffer.from(buffer.subarray(0, tsig.start));
  unsigned.writeUInt16BE(tsig.originalId, 0);
  unsigned.writeUInt16BE(unsigned.readUInt16BE(10) - 1, 10);
  return unsigned;
}

function macMatches(expected: Buffer, mac: Buffer): boolean {
  return expected.length === mac.length && timingSafeEqual(expected, mac);
}

/**
 * Verifies a signed response (RFC 8945 sections 4.3.1 and 5.3): the MAC covers the request MAC with
 * its length, the response without its TSIG RR (ARCOUNT one less, the original ID) and the TSIG
 * variables.
 */
export function verifyResponse(
  buffer: Buffer,
  parsed: ParsedResponse,
  key: TsigKey,
  requestMac: Buffer,
): boolean {
  const tsig = parsed.tsig;
  if (!tsig || tsig.mac.length === 0) return false;
  const expected = hmac(
    key,
    u16(requestMac.length),
    requestMac,
    withoutTsig(buffer, tsig),
    tsigVariables(key, tsig.timeSigned, tsig.fudge, tsig.error, tsig.other),
  );
  return macMatches(expected, tsig.mac);
}

/**
 * Verifies a signed request as a server does (RFC 8945 section 5.2): the MAC covers the request
 * without its TSIG RR and the TSIG variables. The counterpart of signRequest.
 */
export function verifyRequest(buffer: Buffer, parsed: ParsedResponse, key: TsigKey): boolean {
  const tsig = parsed.tsig;
  if (!tsig || tsig.mac.length === 0) return false;
  const expected = hmac(
    key,
    withoutTsig(buffer, tsig),
    tsigVariables(key, tsig.timeSigned, tsig.fudge, tsig.error, tsig.other),
  );
  return macMatches(expected, tsig.mac);
}
