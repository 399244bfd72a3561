import { describe, expect, it } from 'vitest';
import { cardCodeHash, newCardCode, normalizeCardCode, sameCardCode } from './card-code.js';

describe('card codes', () => {
  it('look like YJ-XXXX-XXXX-XXXX-XXXX in a readable alphabet and do not repeat', () => {
    const codes = new Set(Array.from({ length: 2000 }, () => newCardCode()));
    expect(codes.size).toBe(2000);
    for (const code of codes) expect(code).toMatch(/^YJ(-[0-9A-HJKMNP-TV-Z]{4}){4}$/);
  });

  it('normalise what people type: case, spaces, prefix, O/0 and I/L/1', () => {
    const code = 'YJ-AB01-CDEF-GH23-JK45';
    const expected = 'AB01CDEFGH23JK45';
    expect(normalizeCardCode(code)).toBe(expected);
    expect(normalizeCardCode(' yj ab01 cdef gh23 jk45 ')).toBe(expected);
    expect(normalizeCardCode('abO1-cdef-gh23-jk45')).toBe(expected);
    expect(normalizeCardCode('ABOI-CDEF-GH23-JK45')).toBe('AB01CDEFGH23JK45');
    expect(normalizeCardCode('YJ-AB01')).toBeNull();
    expect(normalizeCardCode('YJ-AB0U-CDEF-GH23-JK45')).toBeNull();
    expect(sameCardCode(code, expected)).toBe(true);
    expect(sameCardCode(code, 'AB01CDEFGH23JK46')).toBe(false);
    expect(cardCodeHash(expected)).toMatch(/^[0-9a-f]{64}$/);
  });
});
