/**
 * Turns the bytes of a text part or header into a string the way Chinese mail needs: the charset
 * label of a text part (RFC 2045 section 5.1, RFC 2046 section 4.1.2), of an encoded word (RFC 2047
 * section 2) or of a parameter (RFC 2231 section 4), read more forgivingly than mail carries them:
 *
 * - The GB family (GB2312, GBK, CP936, EUC-CN, GB18030) is always decoded as GB18030, the superset:
 *   clients routinely label GBK text "gb2312" and use characters GB2312 lacks (镕, 喆, 堃 …).
 * - Big5 is decoded as Big5 with the HKSCS extensions (WHATWG "big5").
 * - A missing, "us-ascii" or "utf-8" label on bytes that are not valid UTF-8, and Latin-1 labels on
 *   bytes that pair up as GB double-byte characters, are sniffed: valid UTF-8 first, then GB18030,
 *   then Big5, then Windows-1252 (which never fails).
 * - Everything else goes to the WHATWG decoder of Node's ICU (ISO-2022-JP, Shift_JIS, EUC-KR, …),
 *   then iconv-lite for labels ICU lacks (cp936, …).
 */
import { isAscii } from 'node:buffer';
import iconv from 'iconv-lite';

const GB_LABELS = new Set([
  'gb2312',
  'gb_2312',
  'gb_2312-80',
  'csgb2312',
  'gbk',
  'x-gbk',
  'cp936',
  'ms936',
  'windows-936',
  'euc-cn',
  'x-euc-cn',
  'chinese',
  'iso-ir-58',
  'gb18030',
]);
const BIG5_LABELS = new Set([
  'big5',
  'big-5',
  'big5-hkscs',
  'x-x-big5',
  'cn-big5',
  'csbig5',
  'cp950',
  'ms950',
]);
const LATIN_LABELS = new Set([
  'iso-8859-1',
  'iso8859-1',
  'latin1',
  'l1',
  'windows-1252',
  'cp1252',
  'ascii',
  'us-ascii',
]);
const SNIFF_LABELS = new Set([
  '',
  'utf-8',
  'utf8',
  'unicode-1-1-utf-8',
  '7bit',
  '8bit',
  'unknown',
  'unknown-8bit',
  'x-unknown',
  'default',
]);

function normalizeLabel(label: string | undefined | null): string {
  return (label ?? '')
    .trim()
    .replace(/^["']|["']$/g, '')
    .toLowerCase();
}

function tryDecode(encoding: string, bytes: Uint8Array): string | null {
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** Node's native check (SIMD): a loop over a 10 KiB body's bytes was 2 % of storing a message. */
function hasHighBytes(bytes: Uint8Array): boolean {
  return !isAscii(bytes);
}

/** Share of the non-ASCII characters that are CJK ideographs or CJK punctuation. */
function cjkShare(text: string): number {
  let wide = 0;
  let cjk = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x80) continue;
    wide++;
    if (
      (code >= 0x4e00 && code <= 0x9fff) ||
      (code >= 0x3000 && code <= 0x303f) ||
      (code >= 0xff00 && code <= 0xffef)
    )
      cjk++;
  }
  return wide === 0 ? 0 : cjk / wide;
}

/** Bytes that are not UTF-8, decoded by guessing among the encodings Chinese mail uses. */
function sniff(bytes: Uint8Array): string {
  const utf8 = tryDecode('utf-8', bytes);
  if (utf8 !== null && !isGbkReadAsUtf8(utf8, bytes)) return utf8;
  const gb = tryDecode('gb18030', bytes);
  if (gb !== null && cjkShare(gb) > 0.6) return gb;
  const big5 = tryDecode('big5', bytes);
  if (big5 !== null && cjkShare(big5) > 0.6) return big5;
  return new TextDecoder('windows-1252').decode(bytes);
}

export function decodeBytes(bytes: Uint8Array, label?: string | null): string {
  const name = normalizeLabel(label);
  if (!hasHighBytes(bytes) && !name.startsWith('utf-16') && !name.includes('2022') && name !== 'utf-7') {
    // Pure ASCII reads the same in every ASCII-compatible charset. (A view, not a copy: a 10 KiB
    // body copied here was a fifth of reading a simple message.)
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  }
  if (GB_LABELS.has(name)) return new TextDecoder('gb18030').decode(bytes);
  if (BIG5_LABELS.has(name)) return new TextDecoder('big5').decode(bytes);
  if (SNIFF_LABELS.has(name)) return sniff(bytes);
  if (LATIN_LABELS.has(name)) {
    // Mislabelled mail: a Latin-1 label on UTF-8 or GBK bytes is common; real Latin-1 text rarely
    // decodes as valid multi-byte text of either.
    const utf8 = tryDecode('utf-8', bytes);
    if (utf8 !== null) return utf8;
    const gb = tryDecode('gb18030', bytes);
    if (gb !== null && cjkShare(gb) > 0.8) return gb;
    return new TextDecoder('windows-1252').decode(bytes);
  }
  try {
    return new TextDecoder(name).decode(bytes);
  } catch {
    // not a WHATWG label
  }
  if (iconv.encodingExists(name)) return iconv.decode(Buffer.from(bytes), name);
  return sniff(bytes);
}

/** Unicode blocks that GBK byte pairs land in when read as two-byte UTF-8 (U+0080 to U+07FF). */
const TWO_BYTE_BLOCKS: [number, number][] = [
  [0x0080, 0x024f], // Latin-1 supplement and Latin extended
  [0x0250, 0x02ff], // IPA and spacing modifiers
  [0x0300, 0x036f], // combining marks
  [0x0370, 0x03ff], // Greek
  [0x0400, 0x052f], // Cyrillic
  [0x0530, 0x058f], // Armenian
  [0x0590, 0x05ff], // Hebrew
  [0x0600, 0x07ff], // Arabic, Syriac, Thaana, N'Ko
];

/**
 * UTF-8 text that is really GBK: its characters jump between unrelated scripts (郑十一 in GBK reads
 * as valid UTF-8 "֣ʮһ": Hebrew, IPA, Cyrillic), while the same bytes read as GB18030 are all CJK.
 * Real names keep to one script, so "Иван" in UTF-8 stays Cyrillic.
 */
function isGbkReadAsUtf8(utf8: string, bytes: Uint8Array): boolean {
  const blocks = new Set<number>();
  for (const char of utf8) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x80) continue;
    // Three- and four-byte characters (CJK among them): real UTF-8 text, stop looking.
    if (code >= 0x800) return false;
    blocks.add(TWO_BYTE_BLOCKS.findIndex(([from, to]) => code >= from && code <= to));
  }
  if (blocks.size < 2) return false;
  const gb = tryDecode('gb18030', bytes);
  return gb !== null && cjkShare(gb) === 1;
}

/**
 * True for bytes with 8-bit characters that are not UTF-8: a header written raw by an old client in
 * GBK or Big5, which libraries read as UTF-8 (turning it into U+FFFD or into wrong characters).
 */
export function isLegacyEightBit(bytes: Uint8Array): boolean {
  if (!hasHighBytes(bytes)) return false;
  const utf8 = tryDecode('utf-8', bytes);
  return utf8 === null || isGbkReadAsUtf8(utf8, bytes);
}

/** True when a string from a byte-as-UTF-8 conversion lost characters. */
export function looksGarbled(text: string): boolean {
  return text.includes('\uFFFD');
}
