import fc from 'fast-check';
import iconv from 'iconv-lite';
import libmime from 'libmime';
import { describe, expect, it } from 'vitest';
import { mutationsOf } from '../../../test/support/mutations.js';
import { isLegacyEightBit } from './charset.js';
import {
  decodeWords,
  type HeaderLine,
  headerText,
  legacyFilename,
  legacyHeaderValue,
  rawHeaderText,
  rawHeaderValue,
  splitHeaderBlock,
} from './header-fields.js';

const hanzi = fc.integer({ min: 0x4e00, max: 0x9fa5 }).map((c) => String.fromCharCode(c));
const ascii = fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c));
/** Header text: Chinese, ASCII and single spaces between words, as a subject carries it. */
const subjectText = fc
  .array(
    fc.string({
      unit: fc.oneof(hanzi, ascii, fc.constantFrom('，', '：', '😀')),
      minLength: 1,
      maxLength: 12,
    }),
    {
      minLength: 1,
      maxLength: 8,
    },
  )
  .map((words) => words.join(' '));

/** A header line as mailsplit hands it over: lower-case key, the raw line as a binary string. */
function line(name: string, value: Buffer): HeaderLine {
  return {
    key: name.toLowerCase(),
    line: Buffer.concat([Buffer.from(`${name}:`), value]).toString('binary'),
  };
}

describe('encoded words (RFC 2047): encode → decode', () => {
  it('B and Q encoded words, and a folded Subject as bounces write it', () => {
    fc.assert(
      fc.property(subjectText, (text) => {
        expect(decodeWords(libmime.encodeWord(text, 'B'))).toBe(text);
        expect(decodeWords(libmime.encodeWord(text, 'Q'))).toBe(text);
        expect(decodeWords(libmime.encodeWords(text, 'B', 52))).toBe(text);
        // folded at 76 (RFC 5322 section 2.1.1), unfolded (section 2.2.3), decoded (RFC 2047 section 6.2)
        const folded = libmime.foldLines(`Subject: ${libmime.encodeWords(text, 'B', 52)}`, 76);
        for (const part of folded.split('\r\n')) expect(part.length).toBeLessThanOrEqual(78);
        const lines = [line('Subject', Buffer.from(folded.slice('Subject:'.length), 'latin1'))];
        expect(rawHeaderText(lines, 'subject')).toBe(text);
      }),
      { numRuns: 500 },
    );
  });
});

describe('raw 8-bit headers (old GBK mail)', () => {
  const chinese = fc.string({ unit: hanzi, minLength: 1, maxLength: 30 });

  it('a raw GBK subject reads back as the text', () => {
    fc.assert(
      fc.property(chinese, (text) => {
        const bytes = iconv.encode(text, 'gbk');
        fc.pre(isLegacyEightBit(bytes));
        const lines = [line('Subject', Buffer.concat([Buffer.from(' '), bytes]))];
        expect(legacyHeaderValue(lines, 'subject')).toBe(text);
        expect(rawHeaderText(lines, 'subject')).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('a raw GBK attachment name reads back from Content-Disposition, else Content-Type (RFC 2183, RFC 2045)', () => {
    fc.assert(
      fc.property(chinese, fc.boolean(), (text, disposition) => {
        const bytes = iconv.encode(`${text}.txt`, 'gbk');
        fc.pre(isLegacyEightBit(bytes));
        const quoted = Buffer.concat([Buffer.from('"'), bytes, Buffer.from('"')]);
        const lines = disposition
          ? [line('Content-Disposition', Buffer.concat([Buffer.from(' attachment; filename='), quoted]))]
          : [line('Content-Type', Buffer.concat([Buffer.from(' text/plain; name='), quoted]))];
        expect(legacyFilename(lines)).toBe(`${text}.txt`);
      }),
      { numRuns: 500 },
    );
    // ASCII and encoded names are left to the parser
    expect(
      legacyFilename([line('Content-Disposition', Buffer.from(' attachment; filename="a.txt"'))]),
    ).toBeNull();
  });
});

describe('header readers fed any bytes return and never throw', () => {
  const block = fc
    .array(
      fc.tuple(
        fc.constantFrom('Subject', 'From', 'To', 'Content-Type', 'Content-Disposition', 'X-A'),
        subjectText,
      ),
      {
        maxLength: 6,
      },
    )
    .map((fields) =>
      Buffer.from(
        fields
          .map(([name, value]) => libmime.foldLines(`${name}: ${libmime.encodeWords(value, 'B', 40)}`, 76))
          .join('\r\n'),
      ),
    );

  it('random and damaged header blocks', () => {
    let completed = 0;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 500 }).map((b) => Buffer.from(b)),
          block.chain(mutationsOf),
        ),
        (bytes) => {
          const lines = splitHeaderBlock(bytes);
          for (const field of lines) {
            // a key is the name before the colon; a line without one has none
            if (field.key) expect(field.line.trimStart().toLowerCase().startsWith(field.key)).toBe(true);
            expect(field.line).not.toMatch(/\r?\n[ \t]/);
          }
          for (const key of ['subject', 'from', 'content-type', 'content-disposition', '']) {
            rawHeaderValue(lines, key);
            legacyHeaderValue(lines, key);
            rawHeaderText(lines, key);
          }
          legacyFilename(lines);
          headerText(bytes);
          decodeWords(bytes.toString('latin1'));
          completed += 1;
        },
      ),
      { numRuns: 1000 },
    );
    expect(completed).toBe(1000);
  });

  it('a field found by name is that field, folded lines joined', () => {
    const lines = splitHeaderBlock(Buffer.from('Subject: a\r\n b\r\nnot a field\r\nFrom: x@y'));
    expect(lines.map((field) => field.key)).toEqual(['subject', '', 'from']);
    expect(rawHeaderText(lines, 'subject')).toBe('a b');
    expect(rawHeaderValue(lines, 'not a field')).toBeNull();
  });
});
