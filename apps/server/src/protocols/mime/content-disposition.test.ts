import fc from 'fast-check';
import libmime from 'libmime';
import { describe, expect, it } from 'vitest';
import { contentDisposition } from './content-disposition.js';

/** RFC 8187 section 3.2.1: an ext-value of charset UTF-8, no language, attr-char or %XX octets. */
function readExtValue(header: string): string {
  const match = /; filename\*=UTF-8''((?:[A-Za-z0-9!#$&+\-.^_`|~]|%[0-9A-F]{2})*)$/.exec(header);
  if (!match) throw new Error(`not an RFC 8187 ext-value: ${header}`);
  return decodeURIComponent(match[1] ?? '');
}

describe('contentDisposition (RFC 6266, RFC 8187)', () => {
  it('keeps Chinese names exactly in filename*, with an ASCII filename beside it', () => {
    const header = contentDisposition('attachment', '报价单（2025）.xlsx');
    expect(header).toBe(
      `attachment; filename="____2025_.xlsx"; filename*=UTF-8''%E6%8A%A5%E4%BB%B7%E5%8D%95%EF%BC%882025%EF%BC%89.xlsx`,
    );
    expect(readExtValue(header)).toBe('报价单（2025）.xlsx');
  });

  it('any name: a printable ASCII header whose filename* reads back as the name', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('attachment', 'inline') as fc.Arbitrary<'attachment' | 'inline'>,
        fc.string({ unit: 'binary', maxLength: 100 }),
        (kind, name) => {
          const header = contentDisposition(kind, name);
          expect(header).toMatch(/^[\x20-\x7e]+$/);
          expect(readExtValue(header)).toBe(name);
          // a MIME reader finds the same name (RFC 2231 / RFC 8187 parameter continuation rules)
          expect(libmime.parseHeaderValue(header).value).toBe(kind);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('lone surrogates (a name decoded from broken UTF-16) become U+FFFD instead of throwing', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
          minLength: 1,
          maxLength: 4,
        }),
        fc.string({ maxLength: 10 }),
        (broken, rest) => {
          const name = `${rest}${broken}${rest}`;
          expect(() => contentDisposition('attachment', name)).not.toThrow();
          // iterating by code point yields a lone surrogate as a one-unit character of its own
          const expected = [...name]
            .map((char) => (/^[\uD800-\uDFFF]$/.test(char) ? '\uFFFD' : char))
            .join('');
          expect(readExtValue(contentDisposition('attachment', name))).toBe(expected);
        },
      ),
      { numRuns: 300 },
    );
    expect(readExtValue(contentDisposition('attachment', 'a\uD800b'))).toBe('a\uFFFDb');
  });
});
