import type { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { createMailAccount, imapClient, type MailAccount, RawLineClient } from './mail-client-helpers.js';

let server: TestServer;
let imapPort: number;
let account: MailAccount;
const opened: RawLineClient[] = [];

/** Bytes with a NUL, CR LF and 0xFF inside: literal8 territory (RFC 3516 section 4.2). */
const BINARY_BYTES = Buffer.from([0x00, 0x01, 0x02, 0xff, 0x0d, 0x0a, 0x41]);

const NESTED = [
  'From: inner@example.com',
  'Subject: inner',
  'Content-Type: text/plain',
  'Content-Transfer-Encoding: base64',
  '',
  Buffer.from('inner body').toString('base64'),
].join('\r\n');

/** A multipart message: QP text, base64 binary, an unknown encoding, an embedded message. */
const MESSAGE = Buffer.from(
  [
    'From: sender@example.com',
    'To: someone@example.com',
    'Subject: binary',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    'caf=C3=A9 =3D ok=20  ',
    'soft=',
    'break',
    '--b1',
    'Content-Type: application/octet-stream',
    'Content-Transfer-Encoding: base64',
    '',
    BINARY_BYTES.toString('base64'),
    '--b1',
    'Content-Type: text/plain',
    'Content-Transfer-Encoding: x-uuencode',
    '',
    'begin 644 x',
    '--b1',
    'Content-Type: message/rfc822',
    '',
    NESTED,
    '--b1--',
    '',
  ].join('\r\n'),
  'latin1',
);

const QP_DECODED = Buffer.from('café = ok \r\nsoftbreak', 'utf8');

async function loggedIn(): Promise<RawLineClient> {
  const client = await RawLineClient.connect(imapPort);
  opened.push(client);
  await client.until(/^\* OK/m);
  expect(await client.command('l', `LOGIN ${account.email} ${account.password}`)).toMatch(/^l OK/m);
  return client;
}

async function append(client: RawLineClient, folder: string, bytes: Buffer, flags = ''): Promise<string> {
  client.send(
    Buffer.concat([
      Buffer.from(`ap APPEND ${folder} ${flags}{${bytes.length}+}\r\n`),
      bytes,
      Buffer.from('\r\n'),
    ]),
  );
  return client.until(/(^|\r\n)ap (OK|NO|BAD)[^\r\n]*\r\n/);
}

/** The literal (or literal8) after `name` in a FETCH response, as bytes. */
function literalAfter(response: string, name: string): { binary: boolean; bytes: Buffer } {
  const at = response.indexOf(`${name} `);
  expect(at).toBeGreaterThan(-1);
  const match = /^(~?)\{(\d+)\}\r\n/.exec(response.slice(at + name.length + 1));
  if (!match) throw new Error(`no literal after ${name}: ${response}`);
  const start = at + name.length + 1 + match[0].length;
  return {
    binary: match[1] === '~',
    bytes: Buffer.from(response.slice(start, start + Number(match[2])), 'latin1'),
  };
}

beforeAll(async () => {
  server = await startTestServer({ mailClients: {} });
  imapPort = server.imapPort as number;
  account = await createMailAccount(server, 'binary');
  const client = await loggedIn();
  expect(await append(client, 'INBOX', MESSAGE)).toMatch(/^ap OK/m);
  expect(await append(client, 'INBOX', Buffer.from('Subject: two\r\n\r\nsecond\r\n'), '(\\Seen) ')).toMatch(
    /^ap OK/m,
  );
  expect(await append(client, 'INBOX', Buffer.from('Subject: three\r\n\r\nthird\r\n'))).toMatch(/^ap OK/m);
});
afterAll(async () => {
  for (const client of opened) client.close();
  await server.close();
});

describe('BINARY (RFC 3516)', () => {
  it('is advertised after login, beside IMAP4rev1 and IMAP4rev2', async () => {
    const client = await loggedIn();
    const capability = await client.command('c', 'CAPABILITY');
    expect(capability).toMatch(/^\* CAPABILITY IMAP4rev1 IMAP4rev2 .*\bBINARY\b/m);
    expect(capability).toMatch(/\bSTATUS=SIZE\b/);
  });

  it('decodes quoted-printable and base64 leaf parts; BINARY.SIZE is the decoded length', async () => {
    const client = await loggedIn();
    await client.command('s', 'EXAMINE INBOX');
    const text = await client.command('f', 'FETCH 1 (BINARY.PEEK[1] BINARY.SIZE[1] BINARY.SIZE[2])');
    expect(text).toMatch(/^f OK/m);
    const qp = literalAfter(text, 'BINARY[1]');
    expect(qp.binary).toBe(false);
    expect(qp.bytes.equals(QP_DECODED)).toBe(true);
    expect(text).toContain(`BINARY.SIZE[1] ${QP_DECODED.length}`);
    expect(text).toContain(`BINARY.SIZE[2] ${BINARY_BYTES.length}`);

    const binary = await client.command('g', 'FETCH 1 (BINARY.PEEK[2])');
    const part = literalAfter(binary, 'BINARY[2]');
    // NUL inside: literal8
    expect(part.binary).toBe(true);
    expect(part.bytes.equals(BINARY_BYTES)).toBe(true);
  });

  it('answers partial fetches with the origin, and a plain literal when the slice has no NUL', async () => {
    const client = await loggedIn();
    await client.command('s', 'EXAMINE INBOX');
    const text = await client.command('p', 'FETCH 1 (BINARY.PEEK[2]<1.3>)');
    const slice = literalAfter(text, 'BINARY[2]<1>');
    expect(slice.binary).toBe(false);
    expect(slice.bytes.equals(BINARY_BYTES.subarray(1, 4))).toBe(true);
    const past = await client.command('q', 'FETCH 1 (BINARY.PEEK[2]<100.5>)');
    expect(literalAfter(past, 'BINARY[2]<100>').bytes.length).toBe(0);
  });

  it('refuses an unknown transfer encoding with NO [UNKNOWN-CTE] and writes nothing for it', async () => {
    const client = await loggedIn();
    await client.command('s', 'EXAMINE INBOX');
    const text = await client.command('u', 'FETCH 1 (UID BINARY.PEEK[3])');
    expect(text).toMatch(/^u NO \[UNKNOWN-CTE\]/m);
    expect(text).not.toMatch(/\* 1 FETCH/);
    expect(await client.command('v', 'FETCH 1 (BINARY.SIZE[3])')).toMatch(/^v NO \[UNKNOWN-CTE\]/m);
  });

  it('gives the whole message and embedded messages undecoded, a missing part as empty', async () => {
    const client = await loggedIn();
    await client.command('s', 'EXAMINE INBOX');
    const whole = await client.command('w', 'FETCH 1 (BINARY.PEEK[])');
    expect(literalAfter(whole, 'BINARY[]').bytes.equals(MESSAGE)).toBe(true);
    const nested = await client.command('n', 'FETCH 1 (BINARY.PEEK[4] BINARY.PEEK[4.1])');
    expect(literalAfter(nested, 'BINARY[4]').bytes.toString('latin1')).toBe(NESTED);
    // inside the embedded message the leaf is decoded again
    expect(literalAfter(nested, 'BINARY[4.1]').bytes.toString()).toBe('inner body');
    const missing = await client.command('m', 'FETCH 1 (BINARY.PEEK[9])');
    expect(literalAfter(missing, 'BINARY[9]').bytes.length).toBe(0);
  });

  it('rejects sections BINARY does not take (HEADER, MIME, a partial on SIZE) with BAD', async () => {
    const client = await loggedIn();
    await client.command('s', 'EXAMINE INBOX');
    expect(await client.command('a', 'FETCH 1 (BINARY[1.MIME])')).toMatch(/^a BAD/m);
    expect(await client.command('b', 'FETCH 1 (BINARY[HEADER])')).toMatch(/^b BAD/m);
    expect(await client.command('c', 'FETCH 1 (BINARY.SIZE[1]<0.5>)')).toMatch(/^c BAD/m);
    expect(await client.command('d', 'FETCH 1 (BINARY[0])')).toMatch(/^d BAD/m);
  });

  it('answers a FETCH naming the same BINARY part thousands of times (the part decoded once)', async () => {
    const client = await loggedIn();
    await client.command('s', 'EXAMINE INBOX');
    const items = Array.from({ length: 3000 }, (_, i) => (i % 2 === 0 ? 'BINARY.SIZE[1]' : 'BINARY.PEEK[2]'));
    const text = await client.command('r', `FETCH 1 (${items.join(' ')})`);
    expect(text).toMatch(/^r OK/m);
    expect(text.match(/BINARY\.SIZE\[1\] /g)?.length).toBe(1500);
    expect(text.match(/BINARY\[2\] ~\{7\}/g)?.length).toBe(1500);
  });

  it('BINARY without PEEK marks the message seen; PEEK and EXAMINE do not', async () => {
    const client = await loggedIn();
    await client.command('s', 'SELECT INBOX');
    expect(await client.command('a', 'STORE 1 -FLAGS.SILENT (\\Seen)')).toMatch(/^a OK/m);
    const peek = await client.command('p', 'FETCH 1 (BINARY.PEEK[1] FLAGS)');
    expect(peek).not.toMatch(/\\Seen/);
    const seen = await client.command('f', 'FETCH 1 (BINARY[1])');
    expect(seen).toMatch(/FLAGS \(\\Seen\)/);
    expect(await client.command('b', 'STORE 1 -FLAGS.SILENT (\\Seen)')).toMatch(/^b OK/m);
  });

  it('imapflow downloads the binary part through BINARY, bytes equal', async () => {
    const client: ImapFlow = await imapClient(imapPort, account);
    try {
      await client.mailboxOpen('INBOX', { readOnly: true });
      const { content } = await client.download('1', '2');
      const chunks: Buffer[] = [];
      for await (const chunk of content ?? []) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).equals(BINARY_BYTES)).toBe(true);
      const text = await client.download('1', '1');
      const textChunks: Buffer[] = [];
      for await (const chunk of text.content ?? []) textChunks.push(chunk as Buffer);
      expect(Buffer.concat(textChunks).toString()).toBe(QP_DECODED.toString());
    } finally {
      await client.logout().catch(() => client.close());
    }
  });
});

describe('IMAP4rev2 (RFC 9051) after ENABLE', () => {
  it('a rev1 session keeps RECENT, [UNSEEN] and * SEARCH', async () => {
    const client = await loggedIn();
    const select = await client.command('s', 'SELECT INBOX');
    expect(select).toMatch(/^\* 0 RECENT/m);
    expect(select).toMatch(/^\* OK \[UNSEEN 1\]/m);
    expect(select).not.toMatch(/^\* LIST/m);
    expect(await client.command('x', 'SEARCH ALL')).toMatch(/^\* SEARCH 1 2 3\r\n/m);
    expect(await client.command('y', 'STATUS INBOX (RECENT)')).toMatch(/^\* STATUS "INBOX" \(RECENT 0\)/m);
  });

  it('ENABLE IMAP4rev2 answers ENABLED once; before login it is refused', async () => {
    const anonymous = await RawLineClient.connect(imapPort);
    opened.push(anonymous);
    await anonymous.until(/^\* OK/m);
    expect(await anonymous.command('e', 'ENABLE IMAP4rev2')).toMatch(/^e BAD/m);
    const client = await loggedIn();
    expect(await client.command('e', 'ENABLE IMAP4rev2')).toMatch(/^\* ENABLED IMAP4rev2\r\ne OK/m);
    expect(await client.command('f', 'ENABLE IMAP4rev2')).toMatch(/^\* ENABLED\r\nf OK/m);
  });

  it('SELECT without RECENT or [UNSEEN], with a LIST; [CLOSED] on a second SELECT', async () => {
    const client = await loggedIn();
    await client.command('e', 'ENABLE IMAP4rev2');
    const select = await client.command('s', 'SELECT INBOX');
    expect(select).toMatch(/^s OK \[READ-WRITE\]/m);
    expect(select).toMatch(/^\* 3 EXISTS/m);
    expect(select).not.toMatch(/RECENT/);
    expect(select).not.toMatch(/\[UNSEEN/);
    expect(select).toMatch(/^\* LIST \(\\HasNoChildren\) "\/" "INBOX"/m);
    expect(select).toMatch(/\[UIDVALIDITY \d+\]/);
    expect(select).toMatch(/\[UIDNEXT \d+\]/);
    expect(select).toMatch(/\[PERMANENTFLAGS/);
    const again = await client.command('t', 'EXAMINE Sent');
    expect(again).toMatch(/^\* OK \[CLOSED\]/m);
    expect(again).toMatch(/^\* LIST \(\\HasNoChildren \\Sent\) "\/" "Sent"/m);
  });

  it('SEARCH answers in the ESEARCH form, never * SEARCH', async () => {
    const client = await loggedIn();
    await client.command('e', 'ENABLE IMAP4rev2');
    await client.command('s', 'SELECT INBOX');
    const all = await client.command('x', 'SEARCH ALL');
    expect(all).toMatch(/^\* ESEARCH \(TAG "x"\) ALL 1:3\r\n/m);
    expect(all).not.toMatch(/^\* SEARCH/m);
    const uids = await client.command('u', 'UID SEARCH SEEN');
    expect(uids).toMatch(/^\* ESEARCH \(TAG "u"\) UID ALL \d+\r\n/m);
    const none = await client.command('n', 'SEARCH SUBJECT nothing-like-this');
    expect(none).toMatch(/^\* ESEARCH \(TAG "n"\)\r\n/m);
    const count = await client.command('c', 'SEARCH RETURN (COUNT) ALL');
    expect(count).toMatch(/^\* ESEARCH \(TAG "c"\) COUNT 3\r\n/m);
  });

  it('STATUS has SIZE and DELETED and no longer RECENT', async () => {
    const client = await loggedIn();
    await client.command('e', 'ENABLE IMAP4rev2');
    await client.command('s', 'SELECT INBOX');
    const sizes = await client.command('f', 'FETCH 1:* (RFC822.SIZE)');
    const total = [...sizes.matchAll(/RFC822\.SIZE (\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
    expect(total).toBeGreaterThan(MESSAGE.length);
    const before = await client.command('a', 'STATUS INBOX (MESSAGES SIZE DELETED UNSEEN)');
    expect(before).toMatch(
      new RegExp(`^\\* STATUS "INBOX" \\(MESSAGES 3 SIZE ${total} DELETED 0 UNSEEN \\d+\\)`, 'm'),
    );
    expect(await client.command('d', 'STORE 3 +FLAGS.SILENT (\\Deleted)')).toMatch(/^d OK/m);
    expect(await client.command('b', 'STATUS INBOX (DELETED)')).toMatch(/^\* STATUS "INBOX" \(DELETED 1\)/m);
    expect(await client.command('r', 'STATUS INBOX (RECENT)')).toMatch(/^r BAD/m);
    expect(await client.command('u', 'STORE 3 -FLAGS.SILENT (\\Deleted)')).toMatch(/^u OK/m);
    expect(await client.command('e', 'STATUS Trash (MESSAGES SIZE)')).toMatch(
      /^\* STATUS "Trash" \(MESSAGES 0 SIZE 0\)/m,
    );
  });

  it('keeps the rev2 keywords ($Forwarded, $Junk, $NotJunk); LIST and LSUB still answer', async () => {
    const client = await loggedIn();
    await client.command('e', 'ENABLE IMAP4rev2');
    await client.command('s', 'SELECT INBOX');
    const stored = await client.command('k', 'STORE 2 +FLAGS ($Forwarded $Junk)');
    expect(stored).toMatch(/FLAGS \([^)]*\$Forwarded[^)]*\)/);
    expect(stored).toMatch(/\$Junk/);
    const swapped = await client.command('j', 'STORE 2 FLAGS (\\Seen $NotJunk)');
    expect(swapped).toMatch(/FLAGS \(\\Seen \$NotJunk\)/);
    const list = await client.command('l', 'LIST "" "*"');
    expect(list).toMatch(/^\* LIST \(\\HasNoChildren \\Trash\) "\/" "Trash"/m);
    expect(await client.command('m', 'LSUB "" "*"')).toMatch(/^\* LSUB \(\\HasNoChildren\) "\/" "INBOX"/m);
    // RFC 9051 section 6.3.9: LIST (SUBSCRIBED) replaces LSUB
    const subscribed = await client.command('n', 'LIST (SUBSCRIBED) "" "*"');
    expect(subscribed.match(/\\Subscribed/g)?.length).toBe(5);
    expect(subscribed).toMatch(/^\* LIST \(\\HasNoChildren \\Subscribed \\Junk\) "\/" "Junk"/m);
    const returned = await client.command('o', 'LIST "" "Sent" RETURN (SUBSCRIBED CHILDREN)');
    expect(returned).toMatch(/^\* LIST \(\\HasNoChildren \\Subscribed \\Sent\) "\/" "Sent"\r\no OK/m);
  });
});
