import { describe, expect, it } from 'vitest';
import { ImapCommandReader } from './command-reader.js';
import { fetchResponseName, parseFetchArguments } from './fetch-attributes.js';
import { ImapSyntaxError, type ImapValue } from './imap-value.js';
import { formatInternalDate, parseInternalDate, parseSearchDate } from './internal-date.js';
import { decodeMailboxName, encodeMailboxName } from './mailbox-name.js';
import { parseSearchArguments } from './search-keys.js';
import { formatSequenceSet, parseSequenceSet, resolveSequenceSet } from './sequence-set.js';
import { parseStoreArguments } from './store-arguments.js';

/** The arguments of one command line (literals sent non-synchronising). */
function argsOf(line: string | Buffer): ImapValue[] {
  const events = new ImapCommandReader().read(Buffer.concat([Buffer.from(line), Buffer.from('\r\n')]));
  const event = events.find((e) => e.type === 'command' || e.type === 'bad');
  if (event?.type !== 'command') throw new Error(`not read: ${JSON.stringify(event)}`);
  return event.command.args;
}

describe('sequence sets (RFC 3501 section 9, RFC 5182)', () => {
  it('reads ranges, * and $', () => {
    expect(parseSequenceSet('1:*,3,7:5')).toEqual([
      { from: 1, to: '*' },
      { from: 3, to: 3 },
      { from: 7, to: 5 },
    ]);
    expect(parseSequenceSet('$')).toBe('$');
    expect(
      resolveSequenceSet(
        [
          { from: 9, to: 7 },
          { from: 2, to: '*' },
          { from: 5, to: 5 },
        ],
        4,
      ),
    ).toEqual([
      [2, 5],
      [7, 9],
    ]);
    expect(formatSequenceSet([5, 1, 2, 3, 9])).toBe('1:3,5,9');
  });

  it.each(['', '0', '1:', ',1', '1,,2', '1:2:3', '$,1', 'a', '99999999999'])('refuses %j', (text) => {
    expect(() => parseSequenceSet(text)).toThrow(ImapSyntaxError);
  });
});

describe('FETCH items (RFC 3501 section 6.4.5, RFC 3516, RFC 7162)', () => {
  it('expands the macros', () => {
    expect(parseFetchArguments(argsOf('a FETCH 1:3 ALL')).attributes.map((a) => a.name)).toEqual([
      'FLAGS',
      'INTERNALDATE',
      'RFC822.SIZE',
      'ENVELOPE',
    ]);
    expect(parseFetchArguments(argsOf('a FETCH 1 fast')).attributes).toHaveLength(3);
    expect(parseFetchArguments(argsOf('a FETCH 1 FULL')).attributes.at(-1)).toEqual({ name: 'BODY' });
  });

  it('reads sections, partials, BINARY and CHANGEDSINCE', () => {
    const parsed = parseFetchArguments(
      argsOf(
        'a FETCH 2:4 (FLAGS BODY[HEADER.FIELDS (DATE FROM)] BODY.PEEK[1.2.MIME]<0.100> BINARY.PEEK[1] BINARY.SIZE[2] MODSEQ) (CHANGEDSINCE 12345)',
      ),
    );
    expect(parsed.changedSince).toBe(12345);
    expect(parsed.attributes).toEqual([
      { name: 'FLAGS' },
      {
        name: 'BODY[]',
        peek: false,
        section: { part: [], text: 'HEADER.FIELDS', fields: ['DATE', 'FROM'] },
        partial: null,
      },
      {
        name: 'BODY[]',
        peek: true,
        section: { part: [1, 2], text: 'MIME', fields: [] },
        partial: { offset: 0, length: 100 },
      },
      { name: 'BINARY[]', peek: true, part: [1], partial: null },
      { name: 'BINARY.SIZE', part: [2] },
      { name: 'MODSEQ' },
    ]);
    expect(parsed.attributes.map(fetchResponseName)).toEqual([
      'FLAGS',
      'BODY[HEADER.FIELDS (DATE FROM)]',
      'BODY[1.2.MIME]<0>',
      'BINARY[1]',
      'BINARY.SIZE[2]',
      'MODSEQ',
    ]);
    expect(parseFetchArguments(argsOf('a FETCH 1 BODY[]')).attributes[0]).toMatchObject({
      section: { part: [], text: null },
    });
  });

  it.each([
    'a FETCH 1 BODY[MIME]',
    'a FETCH 1 BODY[1.]',
    'a FETCH 1 BODY[HEADER.FIELDS]',
    'a FETCH 1 BODY[TEXT (A)]',
    'a FETCH 1 BODY[]<0>',
    'a FETCH 1 FOO',
    'a FETCH 1 (FLAGS ALL)',
    'a FETCH 1 BINARY[TEXT]',
    'a FETCH 0 FLAGS',
    'a FETCH 1',
  ])('refuses %j', (line) => {
    expect(() => parseFetchArguments(argsOf(line))).toThrow(ImapSyntaxError);
  });
});

describe('STORE (RFC 3501 section 6.4.6, RFC 7162 section 3.1.3)', () => {
  it('reads the operation, silence, flags and UNCHANGEDSINCE', () => {
    expect(parseStoreArguments(argsOf('A003 STORE 2:4 +FLAGS (\\Deleted)'))).toEqual({
      sequence: [{ from: 2, to: 4 }],
      operation: 'add',
      silent: false,
      flags: ['\\Deleted'],
      unchangedSince: null,
    });
    expect(
      parseStoreArguments(argsOf('a103 STORE 7,5,9 (UNCHANGEDSINCE 320162338) -FLAGS.SILENT \\Seen $Junk')),
    ).toEqual({
      sequence: [
        { from: 7, to: 7 },
        { from: 5, to: 5 },
        { from: 9, to: 9 },
      ],
      operation: 'remove',
      silent: true,
      flags: ['\\Seen', '$Junk'],
      unchangedSince: 320162338,
    });
    expect(parseStoreArguments(argsOf('a STORE 1 FLAGS ()')).flags).toEqual([]);
  });

  it.each([
    'a STORE 1 FLAGS',
    'a STORE 1 XFLAGS (\\Seen)',
    'a STORE 1 FLAGS (a) (b)',
    'a STORE 1 FLAGS ("x")',
  ])('refuses %j', (line) => {
    expect(() => parseStoreArguments(argsOf(line))).toThrow(ImapSyntaxError);
  });
});

describe('SEARCH keys (RFC 3501 section 6.4.4, RFC 9051 section 6.4.4)', () => {
  it('reads the RFC 3501 examples', () => {
    expect(parseSearchArguments(argsOf('A282 SEARCH FLAGGED SINCE 1-Feb-1994 NOT FROM "Smith"')).key).toEqual(
      {
        type: 'and',
        keys: [
          { type: 'flag', flag: '\\Flagged', set: true },
          { type: 'date', sent: false, comparison: 'since', date: '1994-02-01' },
          { type: 'not', key: { type: 'text', field: 'FROM', value: 'Smith' } },
        ],
      },
    );
    expect(parseSearchArguments(argsOf('A284 SEARCH TEXT "string not in mailbox"')).key).toEqual({
      type: 'text',
      field: 'TEXT',
      value: 'string not in mailbox',
    });
  });

  it('reads CHARSET UTF-8 with a literal of Chinese text', () => {
    const text = Buffer.from('季度报告', 'utf8');
    const line = Buffer.concat([
      Buffer.from(`A285 SEARCH CHARSET UTF-8 SUBJECT {${text.length}+}\r\n`),
      text,
    ]);
    expect(parseSearchArguments(argsOf(line)).key).toEqual({
      type: 'text',
      field: 'SUBJECT',
      value: '季度报告',
    });
  });

  it('reads OR, groups, UID, sequence sets, sizes, headers, MODSEQ and RETURN', () => {
    const parsed = parseSearchArguments(
      argsOf(
        'a UID SEARCH RETURN (MIN COUNT) OR (SEEN LARGER 100) UID 1:* 2,4:* HEADER X-Spam yes MODSEQ 620162338',
      ),
    );
    expect(parsed.returnOptions).toEqual(['MIN', 'COUNT']);
    expect(parsed.key).toEqual({
      type: 'and',
      keys: [
        {
          type: 'or',
          left: {
            type: 'and',
            keys: [
              { type: 'flag', flag: '\\Seen', set: true },
              { type: 'size', comparison: 'larger', size: 100 },
            ],
          },
          right: { type: 'uid', set: [{ from: 1, to: '*' }] },
        },
        {
          type: 'sequence',
          set: [
            { from: 2, to: 2 },
            { from: 4, to: '*' },
          ],
        },
        { type: 'header', field: 'X-Spam', value: 'yes' },
        { type: 'modseq', modseq: 620162338 },
      ],
    });
  });

  it('refuses other charsets with BADCHARSET, and bad keys', () => {
    expect(() => parseSearchArguments(argsOf('a SEARCH CHARSET GB2312 TEXT x'))).toThrow(
      expect.objectContaining({ code: 'BADCHARSET' }),
    );
    for (const line of [
      'a SEARCH',
      'a SEARCH FROM',
      'a SEARCH OR SEEN',
      'a SEARCH SINCE 31-Feb-2024',
      'a SEARCH BOGUS',
    ]) {
      expect(() => parseSearchArguments(argsOf(line)), line).toThrow(ImapSyntaxError);
    }
    const deep = `a SEARCH ${'NOT '.repeat(500)}SEEN`;
    expect(() => parseSearchArguments(argsOf(deep))).toThrow(ImapSyntaxError);
  });
});

describe('mailbox names in modified UTF-7 (RFC 3501 section 5.1.3)', () => {
  it('reads and writes the RFC example and Chinese names', () => {
    expect(decodeMailboxName('~peter/mail/&U,BTFw-/&ZeVnLIqe-')).toBe('~peter/mail/台北/日本語');
    expect(encodeMailboxName('~peter/mail/台北/日本語')).toBe('~peter/mail/&U,BTFw-/&ZeVnLIqe-');
    expect(encodeMailboxName('Tom & Jerry')).toBe('Tom &- Jerry');
    expect(decodeMailboxName(encodeMailboxName('收件箱/工作 2026'))).toBe('收件箱/工作 2026');
    expect(decodeMailboxName('&2D3cAA-')).toBe('🐀');
  });

  it.each(['&', '&U,BTFw', '&AGE-', '&Jjo!-', 'ü', '&U-', '&2D0-'])('refuses %j', (wire) => {
    expect(() => decodeMailboxName(wire)).toThrow(ImapSyntaxError);
  });
});

describe('dates (RFC 3501 section 9)', () => {
  it('writes and reads date-time with its zone', () => {
    const moment = new Date('1996-07-17T09:44:25Z');
    expect(formatInternalDate(moment, -420)).toBe('17-Jul-1996 02:44:25 -0700');
    expect(formatInternalDate(new Date('2026-03-01T00:00:00Z'), 480)).toBe(' 1-Mar-2026 08:00:00 +0800');
    expect(parseInternalDate('17-Jul-1996 02:44:25 -0700')).toEqual(moment);
    expect(parseInternalDate(' 1-Mar-2026 08:00:00 +0800').toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(parseSearchDate('1-feb-1994')).toBe('1994-02-01');
    for (const bad of [
      '17-Jul-1996 25:00:00 -0700',
      '17-Foo-1996 02:44:25 -0700',
      '30-Feb-2024 00:00:00 +0000',
      'x',
    ]) {
      expect(() => parseInternalDate(bad), bad).toThrow(ImapSyntaxError);
    }
  });
});
