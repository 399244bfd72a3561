/**
 * Reading raw header fields (RFC 5322 section 2.2): a field's bytes, unfolded (section 2.2.3), with
 * 8-bit text decoded as charset.ts reads it and encoded words decoded (RFC 2047 section 6), and the
 * attachment name of Content-Disposition (RFC 2183 section 2.3) or Content-Type (RFC 2045 section
 * 5.1, `name`) when it was written as raw GBK or Big5 bytes.
 */
import { createRequire } from 'node:module';
import type Libmime from 'libmime';
import { decodeBytes, isLegacyEightBit } from './charset.js';

let libmimeModule: typeof Libmime | undefined;
/**
 * libmime, loaded on first use: most mail has no raw 8-bit header and never needs it here, and its
 * tables take 1.5 MiB of heap in a store worker that may otherwise never load it.
 */
function libmime(): typeof Libmime {
  libmimeModule ??= createRequire(import.meta.url)('libmime') as typeof Libmime;
  return libmimeModule;
}

/** A header field as mailsplit keeps it: lower-case name, and the whole line as a binary string. */
export interface HeaderLine {
  key: string;
  line: string;
}
/** mailsplit uses `false` for "none" */
export type HeaderLines = readonly HeaderLine[] | false;

/** The raw bytes of a field's body (after the colon, RFC 5322 section 2.2), or null. */
export function rawHeaderValue(lines: HeaderLines, key: string): Buffer | null {
  const found = lines ? lines.find((line) => line.key === key) : undefined;
  if (!found) return null;
  const raw = Buffer.from(found.line, 'binary');
  return raw.subarray(raw.indexOf(0x3a) + 1);
}

/** Raw header bytes read the way charset.ts reads unlabelled text, unfolded (section 2.2.3). */
export function headerText(value: Buffer): string {
  return decodeBytes(value)
    .replace(/\r?\n[ \t]/g, ' ')
    .trim();
}

/** Encoded words (RFC 2047) decoded; text they cannot be read from is kept as it is. */
export function decodeWords(text: string): string {
  try {
    return libmime().decodeWords(text);
  } catch {
    return text;
  }
}

/**
 * A field's body when it carries 8-bit bytes that are not UTF-8 (old GBK or Big5 mail), decoded;
 * null when it is ASCII or UTF-8 and the libraries' own reading stands.
 */
export function legacyHeaderValue(lines: HeaderLines, key: string): string | null {
  const value = rawHeaderValue(lines, key);
  return value !== null && isLegacyEightBit(value) ? headerText(value) : null;
}

/** A field's body with raw 8-bit bytes (RFC 6532 style, or just old GBK mail) and encoded words read. */
export function rawHeaderText(lines: HeaderLines, key: string): string | null {
  const value = rawHeaderValue(lines, key);
  return value === null ? null : decodeWords(headerText(value));
}

/**
 * An attachment name written as raw GBK or Big5 bytes (no encoded word, no RFC 2231), which
 * mailsplit would keep as Latin-1 mojibake. It takes the name from the field mailsplit takes it
 * from: Content-Disposition's filename first, then Content-Type's name. Null when the name is not
 * such a one (or there is none).
 */
export function legacyFilename(lines: HeaderLines): string | null {
  for (const [key, param] of [
    ['content-disposition', 'filename'],
    ['content-type', 'name'],
  ] as const) {
    const raw = rawHeaderValue(lines, key);
    if (raw === null) continue;
    const legacy = isLegacyEightBit(raw);
    const value = libmime().parseHeaderValue(legacy ? headerText(raw) : raw.toString('latin1')).params[param];
    if (!value) continue;
    return legacy ? decodeWords(value) : null;
  }
  return null;
}

/**
 * The fields of a header block read by hand (when the MIME structure defeated the parser): folded
 * lines unfolded, each field keyed by its lower-case name; a line without a colon has no name.
 */
export function splitHeaderBlock(headerBytes: Buffer): HeaderLine[] {
  return headerBytes
    .toString('binary')
    .replace(/\r?\n[ \t]+/g, ' ')
    .split(/\r?\n/)
    .map((line) => {
      const colon = line.indexOf(':');
      return { key: colon < 0 ? '' : line.slice(0, colon).trim().toLowerCase(), line };
    });
}
