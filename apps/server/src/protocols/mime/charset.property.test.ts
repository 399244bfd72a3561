import fc from 'fast-check';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeBytes, isLegacyEightBit, looksGarbled } from './charset.js';

const ascii = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));
/** CJK Unified Ideographs U+4E00..U+9FA5: all of them are in GBK (and GB18030). */
const hanzi = fc.integer({ min: 0x4e00, max: 0x9fa5 }).map((c) => String.fromCharCode(c));
/** Chinese punctuation GBK has. */
const punctuation = fc.constantFrom(
  '，',
  '。',
  '：',
  '；',
  '！',
  '？',
  '“',
  '”',
  '（',
  '）',
  '、',
  '《',
  '》',
);
/** Hanzi of Big5 proper (lead bytes A4-C6 and C9-F9), found by decoding valid byte pairs. */
const big5Char = fc
  .tuple(
    fc.oneof(fc.integer({ min: 0xa4, max: 0xc6 }), fc.integer({ min: 0xc9, max: 0xf9 })),
    fc.oneof(fc.integer({ min: 0x40, max: 0x7e }), fc.integer({ min: 0xa1, max: 0xfe })),
  )
  .map(([lead, trail]) => new TextDecoder('big5').decode(Uint8Array.of(lead, trail)))
  // C6A1 onwards maps to the Private Use Area (the HKSCS-era extension), which is not Big5 text
  .filter((char) => char.length >= 1 && !/[\uFFFD\uE000-\uF8FF]/.test(char));
/** Any Unicode text, well formed (no lone surrogates: they have no encoded form). */
const anyText = fc.string({ unit: 'binary', maxLength: 200 });

describe('decodeBytes: encode → decode (RFC 2045 section 5.1 charset, RFC 2047/2231 labels)', () => {
  it('GB18030 labels: any Unicode text outside the Private Use Area', () => {
    // GB18030-2022 gave standard code points (龴, 龹 …) to byte sequences that GB18030-2005, and
    // so iconv-lite's encoder, sends for Private Use Area characters; Node's decoder reads the
    // standard ones, which is what a person wants to see.
    const text = anyText.filter((value) => !/[\uE000-\uF8FF]/.test(value));
    fc.assert(
      fc.property(text, fc.constantFrom('gb18030', 'GB18030', '"gb18030"'), (text, label) => {
        expect(decodeBytes(iconv.encode(text, 'gb18030'), label)).toBe(text);
      }),
      { numRuns: 1000 },
    );
  });

  it('GBK text under every GB label, including the "gb2312" clients put on it', () => {
    const text = fc.string({ unit: fc.oneof(hanzi, ascii, punctuation), maxLength: 100 });
    fc.assert(
      fc.property(
        text,
        fc.constantFrom('gbk', 'gb2312', 'GB2312', 'cp936', 'x-gbk', 'euc-cn'),
        (input, label) => {
          expect(decodeBytes(iconv.encode(input, 'gbk'), label)).toBe(input);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('Big5', () => {
    const text = fc.string({ unit: fc.oneof(big5Char, ascii), maxLength: 100 });
    fc.assert(
      fc.property(text, fc.constantFrom('big5', 'Big5', 'big5-hkscs', 'cp950'), (input, label) => {
        // encoded as Windows writes Big5 (cp950): iconv-lite's "big5" puts 仝 and ▓ elsewhere
        expect(decodeBytes(iconv.encode(input, 'cp950'), label)).toBe(input);
      }),
      { numRuns: 1000 },
    );
  });

  it('UTF-8 text with a character beyond U+07FF is read as UTF-8 with or without a label', () => {
    const wide = fc.tuple(anyText, hanzi, anyText).map(([before, char, after]) => `${before}${char}${after}`);
    fc.assert(
      fc.property(
        wide,
        fc.constantFrom(undefined, null, '', 'utf-8', 'UTF8', 'us-ascii', 'unknown-8bit'),
        (text, label) => {
          const bytes = Buffer.from(text, 'utf8');
          expect(decodeBytes(bytes, label)).toBe(text);
          expect(isLegacyEightBit(bytes)).toBe(false);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('unlabelled GBK Chinese is recognised when it cannot be UTF-8', () => {
    const text = fc.string({ unit: hanzi, minLength: 1, maxLength: 60 });
    fc.assert(
      fc.property(text, (input) => {
        const bytes = iconv.encode(input, 'gbk');
        fc.pre(isLegacyEightBit(bytes));
        expect(decodeBytes(bytes)).toBe(input);
        expect(looksGarbled(decodeBytes(bytes))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('any bytes under any label decode to a string, never an exception', () => {
    const label = fc.oneof(
      fc.constantFrom(
        'gbk',
        'big5',
        'utf-8',
        'utf-16',
        'utf-16le',
        'utf-7',
        'iso-2022-jp',
        'shift_jis',
        'euc-kr',
        'koi8-r',
        'iso-8859-1',
        'x-unknown',
        'cp936',
        'hz-gb-2312',
        'utf-32',
      ),
      fc.string({ maxLength: 20 }),
    );
    let completed = 0;
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), fc.option(label), (bytes, name) => {
        expect(typeof decodeBytes(bytes, name)).toBe('string');
        isLegacyEightBit(bytes);
        completed += 1;
      }),
      { numRuns: 1000 },
    );
    expect(completed).toBe(1000);
  });
});
