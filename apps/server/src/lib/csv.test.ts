import { describe, expect, it } from 'vitest';
import { parseCsv, toCsv, UTF8_BOM } from './csv.js';

describe('csv', () => {
  it('parses quotes, doubled quotes, commas and line breaks inside fields, CRLF and a BOM', () => {
    const text = `${UTF8_BOM}邮箱地址,备注\r\na@x.test,"说明, 含逗号"\r\nb@x.test,"两行\n备注 ""引号"""\n\nc@x.test,`;
    expect(parseCsv(text)).toEqual([
      ['邮箱地址', '备注'],
      ['a@x.test', '说明, 含逗号'],
      ['b@x.test', '两行\n备注 "引号"'],
      ['c@x.test', ''],
    ]);
  });

  it('refuses an unterminated quote', () => {
    expect(() => parseCsv('a,"b\nc')).toThrow(/引号/);
  });

  it('writes what it reads, with a BOM, and defuses formulas', () => {
    const csv = toCsv([
      ['地址', '备注'],
      ['a@x.test', 'x,"y"'],
      ['b@x.test', '=HYPERLINK("evil")'],
    ]);
    expect(csv.startsWith(UTF8_BOM)).toBe(true);
    expect(parseCsv(csv)).toEqual([
      ['地址', '备注'],
      ['a@x.test', 'x,"y"'],
      ['b@x.test', `'=HYPERLINK("evil")`],
    ]);
  });
});
