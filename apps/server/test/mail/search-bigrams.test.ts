import { describe, expect, it } from 'vitest';
import { bigramDocument, bigramQuery, sqliteLower } from '../../src/db/search-bigrams.js';

/** The pairs a document holds, as the two characters each. */
function pairs(document: string): string[] {
  return document
    .split(' ')
    .filter((token) => token !== '')
    .map((token) =>
      token
        .split('x')
        .map((hex) => String.fromCodePoint(Number.parseInt(hex, 16)))
        .join(''),
    )
    .sort();
}

describe('pairs of characters for the two-character search index', () => {
  it('folds ASCII letters only, as SQLite’s lower() does', () => {
    expect(sqliteLower('ÉCOLE Straße QX')).toBe('École straße qx');
    expect(pairs(bigramDocument(['AbÉ']))).toEqual(['bÉ', 'ab'].sort());
  });

  it('takes each column on its own, distinct pairs only, nulls and one-character columns giving none', () => {
    expect(pairs(bigramDocument(['发票发票', null, '甲', 'ab']))).toEqual(['ab', '发票', '票发'].sort());
    expect(bigramDocument([null, '', 'x'])).toBe('');
  });

  it('counts characters outside the Basic Multilingual Plane as one, and newlines as characters', () => {
    expect(pairs(bigramDocument(['😀😁\nz']))).toEqual(['😀😁', '😁\n', '\nz'].sort());
    expect(bigramQuery('😀😁')).toBe(`"1f600x1f601"`);
  });

  it('writes a query no FTS5 syntax can enter, of exactly two characters', () => {
    expect(bigramQuery('"*')).toBe('"22x2a"');
    expect(bigramDocument(['"*'])).toBe('22x2a');
    expect(() => bigramQuery('abc')).toThrow();
    expect(() => bigramQuery('a')).toThrow();
  });
});
