import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The little of the DNS wire format (RFC 1035 section 4) that an RFC 2136 UPDATE signed with TSIG
 * (RFC 8945) needs: names, resource records, the message header, and the TSIG signature.
 */

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

/** A name in uncompressed wire form, lower case: the canonical form TSIG signs (RFC 8945 4.3.3). */
export function encodeName(name: string): Buffer {
  const trimmed = name.replace(/\.$/, '').toLowerCase();
  const parts: Buffer[] = [];
  if (trimmed) {
    for (const label of trimmed.split('.')) {
      const bytes = Buffer.from(label, 'ascii');
      if (bytes.length === 0 || bytes.length > 63) throw new Error(`invalid DNS label in ${name}`);
      parts.push(Buffer.from([bytes.length]), bytes);
    }
  }
  parts.push(Buffer.from([0]));
  return Buffer.concat(parts);
}

function u16(value: number): Buffer {
  const buffer = Buffer.alloc(2);
  buffer.writeUInt16BE(value);
  return buffer;
}

function u32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
}

/** 48-bit seconds since the epoch (RFC 8945 4.2, Time Signed). */
function u48(value: number): Buffer {
  const buffer = Buffer.alloc(6);
  buffer.writeUIntBE(value, 0, 6);
  return buffer;
}

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
    if (bytes.length > 255) throw new Error('TXT character-string longer than 255 bytes');
    chunks.push(Buffer.from([bytes.length]), bytes);
  }
  return Buffer.concat(chunks);
}

/** A long TXT value (a 2048-bit DKIM key is ~400 bytes) becomes several character-strings. */
export function splitTxt(text: string): string[] {
  const strings: string[] = [];
  for (let index = 0; index < text.length; index += 255) strings.push(text.slice(index, index + 255));
  return strings.length > 0 ? strings : [''];
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
  if (!digest) throw new Error(`unsupported TSIG algorithm ${key.algorithm}`);
  const mac = createHmac(digest, key.secret);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

export const TSIG_FUDGE_SECONDS = 300;

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
  const timeSigned = Math.floor(now / 1000);
  const noOther = Buffer.alloc(0);
  const mac = hmac(key, message, tsigVariables(key, timeSigned, TSIG_FUDGE_SECONDS, 0, noOther));
  const rdata = Buffer.concat([
    encodeName(key.algorithm),
    u48(timeSigned),
    u16(TSIG_FUDGE_SECONDS),
    u16(mac.length),
    mac,
    message.subarray(0, 2),
    u16(0),
    u16(0),
  ]);
  const tsig = encodeRecord({ name: key.name, type: RecordType.TSIG, class: RecordClass.ANY, ttl: 0, rdata });
  const signed = Buffer.concat([message, tsig]);
  signed.writeUInt16BE(signed.readUInt16BE(10) + 1, 10);
  return { signed, mac };
}

/** Skips a possibly compressed name (RFC 1035 4.1.4) and returns the offset after it. */
function skipName(buffer: Buffer, offset: number): number {
  let position = offset;
  for (;;) {
    if (position >= buffer.length) throw new Error('truncated name');
    const length = buffer[position] ?? 0;
    if (length === 0) return position + 1;
    if ((length & 0xc0) === 0xc0) return position + 2;
    position += length + 1;
  }
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

/** Reads an uncompressed name (TSIG's algorithm name is never compressed, RFC 8945 4.2). */
function readName(buffer: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let position = offset;
  for (;;) {
    const length = buffer[position] ?? 0;
    if (length === 0) return { name: labels.join('.'), end: position + 1 };
    labels.push(buffer.subarray(position + 1, position + 1 + length).toString('ascii'));
    position += length + 1;
  }
}

/** Parses the header of a response and, when present, its TSIG RR (the last additional record). */
export function parseResponse(buffer: Buffer): ParsedResponse {
  if (buffer.length < 12) throw new Error('DNS message shorter than its header');
  const flags = buffer.readUInt16BE(2);
  const counts = [4, 6, 8, 10].map((at) => buffer.readUInt16BE(at)) as [number, number, number, number];
  let offset = 12;
  for (let index = 0; index < counts[0]; index += 1) offset = skipName(buffer, offset) + 4;
  let tsig: ParsedTsig | null = null;
  const records = counts[1] + counts[2] + counts[3];
  for (let index = 0; index < records; index += 1) {
    const start = offset;
    offset = skipName(buffer, offset);
    const type = buffer.readUInt16BE(offset);
    const rdataLength = buffer.readUInt16BE(offset + 8);
    const rdataStart = offset + 10;
    offset = rdataStart + rdataLength;
    if (type === RecordType.TSIG && index === records - 1) {
      const algorithm = readName(buffer, rdataStart);
      let at = algorithm.end;
      const timeSigned = buffer.readUIntBE(at, 6);
      const fudge = buffer.readUInt16BE(at + 6);
      const macSize = buffer.readUInt16BE(at + 8);
      at += 10;
      const mac = buffer.subarray(at, at + macSize);
      at += macSize;
      const originalId = buffer.readUInt16BE(at);
      const error = buffer.readUInt16BE(at + 2);
      const otherLength = buffer.readUInt16BE(at + 4);
      const other = buffer.subarray(at + 6, at + 6 + otherLength);
      tsig = { algorithm: algorithm.name, timeSigned, fudge, mac, originalId, error, other, start };
    }
  }
  return {
    id: buffer.readUInt16BE(0),
    isResponse: (flags & 0x8000) !== 0,
    truncated: (flags & 0x0200) !== 0,
    opcode: (flags >> 11) & 0xf,
    rcode: flags & 0xf,
    tsig,
  };
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
  const unsigned = Buffer.from(buffer.subarray(0, tsig.start));
  unsigned.writeUInt16BE(tsig.originalId, 0);
  unsigned.writeUInt16BE(unsigned.readUInt16BE(10) - 1, 10);
  const expected = hmac(
    key,
    u16(requestMac.length),
    requestMac,
    unsigned,
    tsigVariables(key, tsig.timeSigned, tsig.fudge, tsig.error, tsig.other),
  );
  return expected.length === tsig.mac.length && timingSafeEqual(expected, tsig.mac);
}
