import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mutationsOf } from '../../../test/support/mutations.js';
import { parseFetchAttribute } from './fetch-attributes.js';
import type { ImapValue } from './imap-value.js';
import {
  binaryContent,
  bodyPartOf,
  decodeBase64,
  decodeQuotedPrintable,
  envelopeOf,
  findPart,
  parseAddressList,
  parseMimeTree,
  sectionBytes,
} from './message-parts.js';
import { bodyStructureData, envelopeData } from './message-structure.js';
import { formatData } from './response-writer.js';

const NESTED = Buffer.from(
  [
    'From: =?UTF-8?B?5byg5LiJ?= <zhang@example.cn>',
    'To: a@x.test, "B, C" <b@y.test>, team: d@z.test, e@z.test;',
    'Subject: =?UTF-8?B?5rWL6K+V?=',
    'Message-ID: <m1@example.cn>',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="outer"',
    '',
    'preamble',
    '--outer',
    'Content-Type: multipart/alternative; boundary=inner',
    '',
    '--inner',
    'Content-Type: text/plain; charset=utf-8',
    '',
    '你好',
    '--inner',
    'Content-Type: text/html; charset=utf-8',
    '',
    '<p>你好</p>',
    '--inner--',
    '--outer',
    'Content-Type: message/rfc822',
    '',
    'Subject: inner message',
    'Content-Type: text/plain',
    '',
    'inside',
    '--outer',
    'Content-Type: application/pdf; name="a.pdf"',
    'Content-Disposition: attachment; filename="a.pdf"',
    'Content-Transfer-Encoding: base64',
    '',
    'JVBERi0=',
    '--outer--',
    'epilogue',
    '',
  ].join('\r\n'),
);

/** The bytes of `BODY[spec]` as a client names it. */
function section(raw: Buffer, spec: string): string | null {
  const attribute = parseFetchAttribute({
    type: 'atom',
    value: 'BODY',
    section: spec === '' ? [] : specItems(spec),
  });
  if (attribute.name !== 'BODY[]') throw new Error('not a section');
  return sectionBytes(raw, parseMimeTree(raw), attribute.section)?.toString('utf8') ?? null;
}

/** `1.2.HEADER.FIELDS (A B)` as the tokenizer gives a section's items. */
function specItems(spec: string): ImapValue[] {
  const [head, list] = spec.split(' (');
  const values: ImapValue[] = [{ type: 'atom', value: head as string }];
  if (list) {
    const names = list.replace(')', '').split(' ');
    values.push({ type: 'list', items: names.map((value) => ({ type: 'atom', value })) });
  }
  return values;
}

describe('BODY[section] of a nested message (RFC 3501 section 6.4.5)', () => {
  it('finds parts by number, through multiparts and into message/rfc822', () => {
    expect(section(NESTED, '1.1')).toBe('你好');
    expect(section(NESTED, '1.2')).toBe('<p>你好</p>');
    expect(section(NESTED, '1.2.MIME')).toBe('Content-Type: text/html; charset=utf-8\r\n\r\n');
    expect(section(NESTED, '2.HEADER')).toBe('Subject: inner message\r\nContent-Type: text/plain\r\n\r\n');
    expect(section(NESTED, '2.TEXT')).toBe('inside');
    expect(section(NESTED, '2.1')).toBe('inside');
    expect(section(NESTED, '3')).toBe('JVBERi0=');
    expect(section(NESTED, '4')).toBeNull();
    expect(section(NESTED, '1.1.1')).toBe('你好');
    expect(section(NESTED, '')).toBe(NESTED.toString('utf8'));
    expect(section(NESTED, 'HEADER.FIELDS (SUBJECT FROM)')).toBe(
      'From: =?UTF-8?B?5byg5LiJ?= <zhang@example.cn>\r\nSubject: =?UTF-8?B?5rWL6K+V?=\r\n\r\n',
    );
    expect(section(NESTED, 'TEXT')?.startsWith('preamble\r\n--outer')).toBe(true);
  });

  it('describes the structure and the envelope with encoded words intact', () => {
    const tree = parseMimeTree(NESTED);
    const structure = formatData(bodyStructureData(bodyPartOf(NESTED, tree), true)).toString('utf8');
    expect(structure).toContain('("TEXT" "PLAIN" ("CHARSET" "utf-8") NIL NIL "7BIT" 6 1');
    expect(structure).toContain('"ALTERNATIVE"');
    expect(structure).toContain('("MESSAGE" "RFC822" NIL NIL NIL "7BIT"');
    expect(structure).toContain('"BASE64" 8 NIL ("ATTACHMENT" ("FILENAME" "a.pdf"))');
    expect(structure).toMatch(/"MIXED" \("BOUNDARY" "outer"\)/);
    const envelope = formatData(envelopeData(envelopeOf(NESTED, tree))).toString('utf8');
    expect(envelope).toContain('"=?UTF-8?B?5rWL6K+V?="');
    expect(envelope).toContain('(("=?UTF-8?B?5byg5LiJ?=" NIL "zhang" "example.cn"))');
    expect(envelope).toContain('("B, C" NIL "b" "y.test")');
    expect(envelope).toContain(
      '(NIL NIL "team" NIL) (NIL NIL "d" "z.test") (NIL NIL "e" "z.test") (NIL NIL NIL NIL)',
    );
    expect(findPart(tree, [2, 1])?.type).toBe('text');
  });

  it('describes a multipart without parts as holding one empty text part', () => {
    const raw = Buffer.from('Content-Type: multipart/mixed; boundary=x\r\n\r\nno parts here\r\n');
    const structure = formatData(bodyStructureData(bodyPartOf(raw, parseMimeTree(raw)), true)).toString();
    expect(structure.startsWith('(("TEXT" "PLAIN" NIL NIL NIL "7BIT" 0 0')).toBe(true);
  });

  it('reads address lists leniently', () => {
    expect(parseAddressList('"Doe, John" <john@x.test>, (comment) jane@y.test')).toEqual([
      { name: 'Doe, John', mailbox: 'john', host: 'x.test' },
      { name: 'comment', mailbox: 'jane', host: 'y.test' },
    ]);
    expect(parseAddressList('undisclosed-recipients:;')).toEqual([
      { group: 'undisclosed-recipients', members: [] },
    ]);
    expect(parseAddressList('')).toEqual([]);
  });
});

describe('message parts on damaged input', () => {
  it('never throws and keeps every range inside the message', () => {
    fc.assert(
      fc.property(
        mutationsOf(NESTED),
        fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 4 }),
        (raw, path) => {
          const tree = parseMimeTree(raw);
          const check = (node: ReturnType<typeof parseMimeTree>) => {
            expect(node.headerStart).toBeLessThanOrEqual(node.bodyStart);
            expect(node.bodyStart).toBeLessThanOrEqual(Math.max(node.bodyEnd, node.bodyStart));
            expect(node.bodyEnd).toBeLessThanOrEqual(raw.length);
            for (const child of node.children) check(child);
            if (node.message) check(node.message);
          };
          check(tree);
          formatData(bodyStructureData(bodyPartOf(raw, tree), true));
          formatData(envelopeData(envelopeOf(raw, tree)));
          for (const text of [null, 'HEADER', 'TEXT', 'MIME'] as const) {
            const bytes = sectionBytes(raw, tree, { part: path.filter((n) => n > 0), text, fields: [] });
            if (bytes) expect(bytes.length).toBeLessThanOrEqual(raw.length);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('stays bounded on deeply nested and very many parts', () => {
    const deep = Buffer.from(
      `${Array.from({ length: 200 }, (_, i) => `Content-Type: multipart/mixed; boundary=b${i}\r\n\r\n--b${i}\r\n`).join('')}x\r\n`,
    );
    expect(() => bodyPartOf(deep, parseMimeTree(deep))).not.toThrow();
    const many = Buffer.from(
      `Content-Type: multipart/mixed; boundary=z\r\n\r\n${'--z\r\n\r\nx\r\n'.repeat(5000)}--z--\r\n`,
    );
    expect(parseMimeTree(many).children.length).toBeLessThanOrEqual(500);
  });
});

describe('BINARY decoding (RFC 3516, RFC 2045 section 6)', () => {
  const qp = (text: string) => decodeQuotedPrintable(Buffer.from(text, 'latin1')).toString('latin1');

  it('reads quoted-printable: escapes, soft breaks, transport blanks dropped, damage kept', () => {
    expect(qp('a=3Db')).toBe('a=b');
    expect(qp('soft=\r\nbreak')).toBe('softbreak');
    expect(qp('soft=  \nbreak')).toBe('softbreak');
    expect(qp('blanks   \r\nnext\t')).toBe('blanks\r\nnext');
    expect(qp('kept=20\r\n')).toBe('kept \r\n');
    expect(qp('=ZZ and =4')).toBe('=ZZ and =4');
    expect(qp('lower =c3=a9')).toBe('lower \xc3\xa9');
    expect(qp('end=')).toBe('end');
  });

  it('never makes quoted-printable or base64 output longer than the input', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const input = Buffer.from(bytes);
        expect(decodeQuotedPrintable(input).length).toBeLessThanOrEqual(input.length);
        expect(decodeBase64(input).length).toBeLessThanOrEqual(input.length);
      }),
    );
  });

  it('reads base64 with line breaks and stray characters', () => {
    const bytes = Buffer.from([0, 1, 2, 250, 13, 10]);
    const text = bytes.toString('base64');
    expect(decodeBase64(Buffer.from(`${text.slice(0, 4)}\r\n ${text.slice(4)}!`)).equals(bytes)).toBe(true);
  });

  it('decodes leaves only; composite parts as they are; unknown encodings reported', () => {
    const raw = Buffer.from(
      [
        'Content-Type: multipart/mixed; boundary=x',
        '',
        '--x',
        'Content-Transfer-Encoding: BASE64',
        '',
        'aGVsbG8=',
        '--x',
        'Content-Transfer-Encoding: x-gzip',
        '',
        'zz',
        '--x',
        'Content-Type: message/rfc822',
        '',
        'Subject: in',
        '',
        'body',
        '--x--',
      ].join('\r\n'),
    );
    const tree = parseMimeTree(raw);
    expect(binaryContent(raw, tree, [1])).toEqual({ bytes: Buffer.from('hello') });
    expect(binaryContent(raw, tree, [2])).toEqual({ unknownEncoding: 'x-gzip' });
    expect(binaryContent(raw, tree, [3])).toEqual({ bytes: Buffer.from('Subject: in\r\n\r\nbody') });
    expect(binaryContent(raw, tree, [])).toEqual({ bytes: raw });
    expect(binaryContent(raw, tree, [7])).toBeNull();
  });
});
