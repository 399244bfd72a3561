import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type ParsedMail,
  parseMail,
  parseSimpleOnly,
  parseWithMailparser,
} from '../../src/modules/mail/mail-parser.js';
import { mutationsOf } from '../support/mutations.js';

/**
 * The synchronous reader (protocols/mime/simple-message.ts) against mailparser, on the same bytes:
 * it must decline (null) or give exactly what mailparser gives. Every fixture and a generated
 * matrix of headers, charsets, transfer encodings and structures, then damaged copies of them.
 */

const FIXTURE_DIRS = ['../fixtures/eml/', '../fixtures/codes/'].map((dir) =>
  fileURLToPath(new URL(dir, import.meta.url)),
);
const FIXED_NOW = Date.UTC(2026, 10, 27, 12, 0, 0);

beforeAll(() => {
  // mailparser reads an invalid Date as "now": both readers must see the same now.
  vi.useFakeTimers({ toFake: ['Date'], now: FIXED_NOW });
});
afterAll(() => {
  vi.useRealTimers();
});

/** Compares both readers; true when the fast path took the message. */
async function agree(bytes: Buffer, label: string): Promise<boolean> {
  const fast = await parseSimpleOnly(bytes);
  if (fast === null) return false;
  const slow: ParsedMail = await parseWithMailparser(bytes);
  expect(fast, label).toEqual(slow);
  return true;
}

const gbk = (text: string) => iconv.encode(text, 'gbk');
const crlf = (...lines: (string | Buffer)[]) =>
  Buffer.concat(
    lines.map((line) => Buffer.concat([Buffer.from(line as string, 'latin1'), Buffer.from('\r\n')])),
  );
const utf8Line = (text: string) => Buffer.from(text, 'utf8');

/** A message from header lines and a body, with CRLF or LF line ends. */
function message(
  headers: (string | Buffer)[],
  body: Buffer | string,
  ending: '\r\n' | '\n' = '\r\n',
): Buffer {
  const head = headers.map((h) => (typeof h === 'string' ? Buffer.from(h, 'utf8') : h));
  const bodyBytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const parts: Buffer[] = [];
  for (const line of head) parts.push(line, Buffer.from(ending));
  parts.push(
    Buffer.from(ending),
    ending === '\n' ? Buffer.from(bodyBytes.toString('latin1').replace(/\r\n/g, '\n'), 'latin1') : bodyBytes,
  );
  return Buffer.concat(parts);
}

const BASE_HEADERS = [
  'From: <foo@vm>',
  'To: <a@b.test>',
  'Date: Fri, 27 Nov 2026 21:00:02 +0000 (UTC)',
  'Message-Id: <06c4.0003.0000@vm>',
];

/** The message Postfix's `smtp-source -l 10240` sends: the ingest benchmark's message. */
function smtpSourceMessage(): Buffer {
  const lines: string[] = [];
  let size = 0;
  for (let i = 1; size < 10240; i++) {
    const line = `${i % 10}${'X'.repeat(77)}`;
    lines.push(line);
    size += line.length + 2;
  }
  return message(BASE_HEADERS, `${lines.join('\r\n')}\r\n`);
}

function headerMatrix(): (string | Buffer)[][] {
  const subjects: (string | Buffer)[] = [
    'Subject: plain ascii',
    'Subject: =?UTF-8?B?5L2g5aW95LiW55WM?=',
    'Subject: =?gb2312?B?xOO6ww==?= =?gb2312?B?ysC95w==?=',
    'Subject: =?utf-8?Q?caf=C3=A9_ok?= tail',
    'Subject: folded\r\n  over two lines',
    Buffer.concat([Buffer.from('Subject: '), gbk('验证码 123456')]),
    utf8Line('Subject: 直接的 UTF-8 主题'),
    'Subject: ',
    'Subject: __\0JOIN\0__ marker',
    'Subject: =?unknown-charset?Q?x?=',
    `Subject: ${'long '.repeat(300)}`,
  ];
  const froms: (string | Buffer)[] = [
    'From: <foo@vm>',
    'From: "Zhang San" <Zhang@Example.COM>',
    'From: =?UTF-8?B?5byg5LiJ?= <zs@example.com>',
    Buffer.concat([Buffer.from('From: '), gbk('郑十一'), Buffer.from(' <z@example.com>')]),
    'From: =?utf-8?B?IkV2aWwiIDxldmlsQGV4YW1wbGUuY29tPg==?=',
    'From: user@xn--fiqs8s.example',
    'From: =?utf-8?Q?a=40b.com?= <x@y.z>',
    'From: broken <<<',
  ];
  const tos: (string | Buffer)[][] = [
    ['To: <a@b.test>'],
    ['To: a@b.test, "B" <b@b.test>', 'To: c@c.test'],
    ['To: undisclosed-recipients:;'],
    ['To: team: a@x.test, b@x.test;, solo@y.test', 'Cc: =?utf-8?B?5p2O5Zub?= <ls@x.test>, other@x.test'],
    [],
  ];
  const dates: string[][] = [
    ['Date: Fri, 27 Nov 2026 21:00:02 +0000 (UTC)'],
    [],
    ['Date: not a date'],
    ['Date: '],
    ['Date: Mon, 1 Jan 2024 00:00:00 +0800', 'Date: Tue, 2 Jan 2024 00:00:00 +0800'],
  ];
  const ids: string[][] = [
    ['Message-Id: <id@vm>'],
    ['Message-ID: bare@vm'],
    [],
    ['Message-ID: '],
    ['Message-ID: =?utf-8?Q?x?=@y'],
  ];
  const result: (string | Buffer)[][] = [];
  for (let i = 0; i < subjects.length; i++) {
    for (let j = 0; j < froms.length; j++) {
      const to = tos[(i + j) % tos.length] as string[];
      const date = dates[(i * 3 + j) % dates.length] as string[];
      const id = ids[(i + j * 2) % ids.length] as string[];
      result.push([froms[j] as string | Buffer, ...to, subjects[i] as string | Buffer, ...date, ...id]);
    }
  }
  return result;
}

function bodyMatrix(): { headers: string[]; body: Buffer }[] {
  const chinese = '您的验证码是 482913，十分钟内有效。\r\n镕喆堃\r\n';
  const samples: { text: Buffer; labels: string[] }[] = [
    {
      text: Buffer.from('Hello\r\nworld  \r\n\ttabbed\r\n'),
      labels: ['', 'us-ascii', 'utf-8', 'iso-8859-1'],
    },
    { text: Buffer.from(chinese, 'utf8'), labels: ['', 'utf-8', 'UTF-8', 'iso-8859-1', 'gbk', '"utf-8"'] },
    {
      text: gbk(chinese),
      labels: ['', 'gbk', 'gb2312', 'GB18030', 'utf-8', 'iso-8859-1', 'windows-1252', 'x-unknown'],
    },
    { text: iconv.encode('您的驗證碼是 482913\r\n', 'big5'), labels: ['big5', '', 'utf-8'] },
    // テスト 482913 in ISO-2022-JP (RFC 1468), which iconv-lite cannot write
    { text: Buffer.from('\x1b$B%F%9%H\x1b(B 482913\r\n', 'latin1'), labels: ['iso-2022-jp', ''] },
    { text: Buffer.from('caf\xe9 na\xefve\r\n', 'latin1'), labels: ['iso-8859-1', 'latin1', '', 'utf-8'] },
    { text: Buffer.from('nul\0byte\r\n\0\r\n', 'latin1'), labels: [''] },
    { text: Buffer.from('+ZeVnLIqe-', 'latin1'), labels: ['utf-7'] },
    { text: Buffer.from(''), labels: [''] },
    { text: Buffer.from('\r\n\r\n   \r\n'), labels: [''] },
    { text: Buffer.from(`${'y'.repeat(100_000)}`), labels: [''] },
    { text: Buffer.from('trailing spaces   \r\nno final newline'), labels: ['utf-8'] },
  ];
  const result: { headers: string[]; body: Buffer }[] = [];
  for (const sample of samples) {
    for (const label of sample.labels) {
      const type = label ? `Content-Type: text/plain; charset=${label}` : 'Content-Type: text/plain';
      for (const cte of ['', '7bit', '8bit', 'quoted-printable', 'base64']) {
        const headers = [type, ...(cte ? [`Content-Transfer-Encoding: ${cte}`] : [])];
        let body = sample.text;
        if (cte === 'quoted-printable') body = Buffer.from(qpEncode(sample.text));
        if (cte === 'base64')
          body = Buffer.from(`${sample.text.toString('base64').replace(/.{76}/g, '$&\r\n')}\r\n`);
        result.push({ headers, body });
      }
    }
  }
  // Content-Type missing, odd transfer encodings and damaged encodings
  result.push({ headers: [], body: Buffer.from('no content type\r\n') });
  result.push({
    headers: ['Content-Transfer-Encoding: BASE64'],
    body: Buffer.from('aGVsbG8=\r\nd29ybGQ=\r\n'),
  });
  result.push({ headers: ['Content-Transfer-Encoding: base64'], body: Buffer.from('aGVsbG8\r\n') });
  result.push({
    headers: ['Content-Transfer-Encoding: base64'],
    body: Buffer.from('aGVs bG8g!!d29y\r\nbGQ===\r\n'),
  });
  result.push({
    headers: ['Content-Transfer-Encoding: base64'],
    body: Buffer.from('\xc1\xc2QUJD\r\n', 'latin1'),
  });
  result.push({
    headers: ['Content-Transfer-Encoding: quoted-printable'],
    body: Buffer.from('a=\r\nb=3D=3d=ZZ=\r\n=E4=BD=A0  \r\nend='),
  });
  result.push({ headers: ['Content-Transfer-Encoding: x-uuencode'], body: Buffer.from('begin 644 x\r\n') });
  result.push({ headers: ['Content-Transfer-Encoding: 7bit (comment)'], body: Buffer.from('x\r\n') });
  result.push({
    headers: ['Content-Type: text/plain; format=flowed'],
    body: Buffer.from('soft \r\nbreak\r\n'),
  });
  result.push({ headers: ['Content-Type: text/plain; boundary=x'], body: Buffer.from('--x\r\nbody\r\n') });
  result.push({ headers: ['Content-Type: text/plain; name="a.txt"'], body: Buffer.from('named\r\n') });
  result.push({ headers: ['Content-Disposition: inline'], body: Buffer.from('inline\r\n') });
  result.push({ headers: ['Content-Type: TEXT/PLAIN ; CharSet = "GBK" ; x=y'], body: gbk('大写\r\n') });
  result.push({ headers: ["Content-Type: text/plain; charset*=utf-8''gbk"], body: gbk('续\r\n') });
  result.push({ headers: ['Content-Type:'], body: Buffer.from('empty type\r\n') });
  result.push({ headers: ['Content-Type: application/octet-stream'], body: Buffer.from('binary\r\n') });
  result.push({
    headers: ['Content-Type: text/html; charset=utf-8'],
    body: Buffer.from('<p>Hello <b>世界</b></p><br>line<table><tr><td>1</td></tr></table>'),
  });
  result.push({
    headers: ['Content-Type: text/html; charset=gbk', 'Content-Transfer-Encoding: base64'],
    body: Buffer.from(gbk('<div>验证码 <span>1234</span></div>').toString('base64')),
  });
  result.push({ headers: ['Content-Type: text/html'], body: Buffer.from('') });
  result.push({
    headers: ['Content-Type: text/html'],
    body: Buffer.from(`<p>${'x'.repeat(2 * 1024 * 1024)}</p>`),
  });
  result.push({ headers: ['Content-Type: text/plain'], body: Buffer.from('z'.repeat(2 * 1024 * 1024 + 10)) });
  return result;
}

/** Quoted-printable (RFC 2045 section 6.7), written simply: 8-bit and '=' escaped, soft breaks at 76. */
function qpEncode(bytes: Buffer): string {
  let out = '';
  let line = '';
  for (const byte of bytes) {
    if (byte === 0x0a) {
      out += `${line}\n`;
      line = '';
      continue;
    }
    const piece =
      byte === 0x0d || (byte >= 0x20 && byte < 0x7f && byte !== 0x3d)
        ? String.fromCharCode(byte)
        : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    if (line.length + piece.length > 75 && piece !== '\r') {
      out += `${line}=\r\n`;
      line = '';
    }
    line += piece;
  }
  return out + line;
}

function alternativeMatrix(): Buffer[] {
  const plain = [
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    'caf=C3=A9 plain',
    '',
  ];
  const html = [
    'Content-Type: text/html; charset=gbk',
    'Content-Transfer-Encoding: base64',
    '',
    gbk('<p>验证码 <b>9988</b></p>').toString('base64'),
    '',
  ];
  const shapes: string[][] = [
    ['--b1', ...plain, '--b1', ...html, '--b1--', ''],
    ['preamble text', '--b1', ...html, '--b1', ...plain, '--b1--', 'epilogue', '--b1', 'more'],
    ['--b1', ...plain, '--b1--'],
    ['--b1', ...html, '--b1--', ''],
    ['--b1', 'Content-Type: text/plain', '', '', '--b1', 'Content-Type: text/html', '', '', '--b1--', ''],
    ['--b1', 'Content-Type: text/plain', '', '--b1', 'Content-Type: text/html', '', '--b1--'],
    ['--b1', 'Content-Type: text/plain', '', '', '--b1--'],
    ['--b1', '', 'no headers at all', '--b1--'],
    ['--b1', ...plain, '--b1', ...plain, '--b1--'],
    ['--b1', ...plain, '--b1', ...html],
    ['--b1--', '--b1', ...plain, '--b1--'],
    ['--b1', 'Content-Type: text/plain', '--b1--'],
    ['--b1', 'Content-Type: image/png', 'Content-Transfer-Encoding: base64', '', 'iVBORw0KGgo=', '--b1--'],
    ['--b1', 'Content-Type: multipart/related; boundary=b2', '', '--b2', ...plain, '--b2--', '--b1--'],
    [
      '--b1',
      'Content-Type: text/plain',
      'Content-Disposition: attachment; filename=a.txt',
      '',
      'x',
      '--b1--',
    ],
    ['--b1 ', ...plain, '--b1-- ', ''],
    ['--b1', ...plain, '\r--b1', ...html, '--b1--'],
    ['--b1', 'Content-Type: text/plain', '', 'line one', '--b1x', 'still one', '--b1--'],
  ];
  const result: Buffer[] = [];
  for (const shape of shapes) {
    for (const type of [
      'multipart/alternative; boundary="b1"',
      'multipart/alternative; boundary=b1',
      'multipart/mixed; boundary=b1',
      'multipart/alternative',
    ]) {
      for (const ending of ['\r\n', '\n'] as const) {
        const head = ['From: a@b.test', 'Subject: alt', 'MIME-Version: 1.0', `Content-Type: ${type}`];
        result.push(Buffer.from([...head, '', ...shape].join(ending), 'latin1'));
      }
    }
  }
  return result;
}

function matrix(): { label: string; bytes: Buffer }[] {
  const cases: { label: string; bytes: Buffer }[] = [{ label: 'smtp-source', bytes: smtpSourceMessage() }];
  headerMatrix().forEach((headers, i) => {
    cases.push({ label: `headers ${i}`, bytes: message(headers, 'body line\r\n') });
    if (i % 4 === 0) cases.push({ label: `headers ${i} LF`, bytes: message(headers, 'body line\r\n', '\n') });
  });
  bodyMatrix().forEach(({ headers, body }, i) => {
    const head = [...BASE_HEADERS, 'Subject: body case', ...headers];
    cases.push({ label: `body ${i} ${headers.join(' | ')}`, bytes: message(head, body) });
    if (i % 3 === 0) cases.push({ label: `body ${i} LF`, bytes: message(head, body, '\n') });
  });
  alternativeMatrix().forEach((bytes, i) => {
    cases.push({ label: `alternative ${i}`, bytes });
  });
  // Header blocks without a body, without an empty line, opened by an mbox line or too big.
  cases.push({ label: 'no separator', bytes: crlf('From: a@b.test', 'Subject: only headers') });
  cases.push({ label: 'no separator, no final newline', bytes: Buffer.from('From: a@b.test\r\nSubject: x') });
  cases.push({ label: 'empty message', bytes: Buffer.alloc(0) });
  cases.push({ label: 'blank first line', bytes: Buffer.from('\r\nbody only\r\n') });
  cases.push({
    label: 'mbox',
    bytes: Buffer.from('From someone Fri Nov 27 2026\r\nSubject: x\r\n\r\nbody\r\n'),
  });
  cases.push({
    label: 'continuation first',
    bytes: Buffer.from(' folded: first\r\nSubject: x\r\n\r\nbody\r\n'),
  });
  cases.push({ label: 'no colon line', bytes: Buffer.from('garbage line\r\nSubject: x\r\n\r\nbody\r\n') });
  cases.push({ label: 'bare CR', bytes: Buffer.from('Subject: a\rb\r\nFrom: x@y.z\r\n\r\nbo\rdy\r\n') });
  cases.push({
    label: 'huge header',
    bytes: Buffer.from(`Subject: ${'h'.repeat(300 * 1024)}\r\n\r\nbody\r\n`),
  });
  cases.push({ label: 'mixed endings', bytes: Buffer.from('Subject: a\nFrom: x@y.z\r\n\nbody\r\nline\n') });
  return cases;
}

function fixtureFiles(): { label: string; bytes: Buffer }[] {
  return FIXTURE_DIRS.flatMap((dir) =>
    readdirSync(dir)
      .filter((file) => file.endsWith('.eml'))
      .map((file) => ({ label: file, bytes: readFileSync(join(dir, file)) })),
  );
}

describe('the synchronous reader of simple mail', () => {
  it('takes the smtp-source message and reads it as mailparser does', async () => {
    const bytes = smtpSourceMessage();
    expect(await agree(bytes, 'smtp-source')).toBe(true);
    const parsed = await parseMail(bytes);
    expect(parsed.from).toEqual({ name: '', address: 'foo@vm' });
    expect(parsed.messageId).toBe('<06c4.0003.0000@vm>');
    expect(parsed.text?.length).toBeGreaterThan(10000);
  });

  it('agrees with mailparser on every fixture, and takes the simple ones', async () => {
    const taken: string[] = [];
    const files = fixtureFiles();
    for (const { label, bytes } of files) if (await agree(bytes, label)) taken.push(label);
    console.log(`fixtures: the fast path took ${taken.length} of ${files.length}: ${taken.join(', ')}`);
    for (const simple of [
      '01-plain-ascii.eml',
      '02-utf8-qp.eml',
      '03-gbk-base64.eml',
      '05-gb18030.eml',
      '06-big5.eml',
      '07-iso-2022-jp.eml',
      '08-html-only.eml',
      '09-alternative.eml',
    ])
      expect(taken).toContain(simple);
  });

  it('agrees with mailparser on the generated matrix', async () => {
    const cases = matrix();
    let taken = 0;
    for (const { label, bytes } of cases) if (await agree(bytes, label)) taken++;
    console.log(`matrix: the fast path took ${taken} of ${cases.length}`);
    expect(taken).toBeGreaterThan(cases.length / 2);
  });

  it('leaves mailparser unloaded in the store worker while every message is simple', () => {
    // A fresh process loads what store-worker.ts loads (the built server, which globalSetup
    // compiles), parses the smtp-source message, and lists the mail libraries it loaded; then one
    // message the reader declines brings mailparser in.
    const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
    const script = `
      import { createRequire } from 'node:module';
      const dist = ${JSON.stringify(dist)};
      for (const file of ['store/message-store.js', 'db/database.js', 'db/search-index.js', 'modules/filters/index.js',
        'modules/forwarding/index.js', 'modules/mail/index.js', 'modules/settings/index.js', 'modules/webhooks/index.js'])
        await import(dist + file);
      const { parseMail } = await import(dist + 'modules/mail/mail-parser.js');
      const loaded = () => Object.keys(createRequire(import.meta.url).cache)
        .filter((path) => /node_modules\\/(mailparser|@zone-eu\\/mailsplit|libmime|html-to-text)\\//.test(path)).length;
      await parseMail(Buffer.from(process.argv[1], 'base64'));
      const simple = loaded();
      await parseMail(Buffer.from('Content-Type: multipart/mixed; boundary=x\\r\\n\\r\\n--x\\r\\n\\r\\nhi\\r\\n--x--\\r\\n'));
      console.log(JSON.stringify({ simple, afterMailparser: loaded() }));
    `;
    const output = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', script, smtpSourceMessage().toString('base64')],
      {
        encoding: 'utf8',
      },
    );
    const { simple, afterMailparser } = JSON.parse(output.trim().split('\n').pop() ?? '{}') as Record<
      string,
      number
    >;
    expect(simple).toBe(0);
    expect(afterMailparser).toBeGreaterThan(0);
  });

  it('reads a header block of bare CRs in linear time (mailsplit backtracks on it)', async () => {
    // 200 000 bare CRs inside a header line: mailsplit's replace(/[\r\n]+$/, '') over the header
    // block takes minutes on them; the reader must not (the test would time out).
    const crs = Buffer.from(`Subject: x${'\r'.repeat(200_000)}y\r\n\r\nbody\r\n`, 'latin1');
    expect((await parseSimpleOnly(crs))?.text).toBe('body\n');
  });

  it('agrees with mailparser on damaged copies of simple messages', async () => {
    const seeds = [...matrix().filter((c) => c.bytes.length < 4096), ...fixtureFiles()].map((c) => c.bytes);
    let taken = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...seeds).chain((seed) => mutationsOf(seed)),
        async (bytes) => {
          if (await agree(bytes, bytes.toString('latin1').slice(0, 200))) taken++;
        },
      ),
      { numRuns: 600 },
    );
    console.log(`damaged: the fast path took ${taken} of 600`);
  });
});
