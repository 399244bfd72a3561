import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mutationsOf } from '../support/mutations.js';
import { sendMail, simpleMessage } from '../support/smtp-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { createMailAccount, type MailAccount, RawLineClient } from './mail-client-helpers.js';

/**
 * The session's command loop under arbitrary input: sequences of real commands with random
 * arguments, and damaged copies of them, sent to a logged-in session. Whatever comes, the server
 * answers without an internal error, never hangs the next client, and a fresh session still reads
 * the folder.
 */
let server: TestServer;
let account: MailAccount;

beforeAll(async () => {
  server = await startTestServer({ mailClients: {} });
  account = await createMailAccount(server, 'fuzz');
  for (const subject of ['one', '二', 'three']) {
    const content = simpleMessage(account.email, subject, `body of ${subject}`);
    expect((await sendMail(server.smtpPort, { to: [account.email], content })).data?.code).toBe(250);
  }
});
afterAll(async () => server.close());

const sequence = fc.oneof(
  fc.constantFrom('1', '*', '1:*', '2:3', '$', '0', '4294967295', '1,3', '3:1', '*:1', '99999999999'),
  fc.stringMatching(/^[0-9*:,$]{1,12}$/),
);
const folder = fc.constantFrom(
  'INBOX',
  'Sent',
  'Drafts',
  'Junk',
  'Trash',
  'inbox',
  'Nowhere',
  '""',
  '&ZeVnLIqe-',
  '"a b"',
);
const flags = fc.constantFrom(
  '(\\Seen)',
  '(\\Flagged \\Deleted)',
  '(\\Draft $Label)',
  '()',
  '\\Answered',
  '(\\Recent)',
  '(\\*)',
);
const fetchItems = fc.constantFrom(
  'FLAGS',
  '(UID RFC822.SIZE INTERNALDATE)',
  'ALL',
  'FULL',
  'BODYSTRUCTURE',
  'ENVELOPE',
  'BODY.PEEK[]',
  'BODY[HEADER.FIELDS (SUBJECT FROM)]',
  'BODY[1]<0.5>',
  'BODY[1.2.3.MIME]',
  'BODY[TEXT]<10.100>',
  'RFC822',
  'BINARY[1]',
  '(FLAGS) (CHANGEDSINCE 1)',
  '(MODSEQ)',
);
const searchKeys = fc.constantFrom(
  'ALL',
  'UNSEEN',
  'CHARSET UTF-8 SUBJECT 二',
  'OR FROM tester TO nobody',
  'NOT DELETED SINCE 1-Jan-2020',
  'UID 1:* LARGER 10',
  'HEADER Subject one',
  'RETURN (MIN MAX COUNT) ALL',
  'CHARSET KOI8-R ALL',
  'MODSEQ 1',
  '(((((((ALL)))))))',
);
const command = fc.oneof(
  fc.tuple(fc.constantFrom('FETCH', 'UID FETCH'), sequence, fetchItems).map(([c, s, i]) => `${c} ${s} ${i}`),
  fc
    .tuple(
      fc.constantFrom('STORE', 'UID STORE'),
      sequence,
      fc.constantFrom('+FLAGS', '-FLAGS.SILENT', 'FLAGS'),
      flags,
    )
    .map(([c, s, o, f]) => `${c} ${s} ${o} ${f}`),
  fc.tuple(fc.constantFrom('SEARCH', 'UID SEARCH'), searchKeys).map(([c, k]) => `${c} ${k}`),
  fc
    .tuple(fc.constantFrom('COPY', 'MOVE', 'UID COPY', 'UID MOVE'), sequence, folder)
    .map(([c, s, f]) => `${c} ${s} ${f}`),
  fc
    .tuple(fc.constantFrom('SELECT', 'EXAMINE', 'STATUS', 'CREATE', 'DELETE'), folder)
    .map(([c, f]) => (c === 'STATUS' ? `${c} ${f} (MESSAGES UIDNEXT UNSEEN)` : `${c} ${f}`)),
  fc.constantFrom(
    'NOOP',
    'CHECK',
    'EXPUNGE',
    'UID EXPUNGE 1:*',
    'CLOSE',
    'UNSELECT',
    'LIST "" *',
    'LIST (SPECIAL-USE) "" "*" RETURN (STATUS (MESSAGES))',
    'LSUB "" %',
    'NAMESPACE',
    'ID NIL',
    'ENABLE CONDSTORE',
    'CAPABILITY',
    'APPEND Drafts (\\Draft) {11+}\r\nSubject: x\r\n',
    'APPEND Trash {5}',
    'LOGIN a b',
    'AUTHENTICATE PLAIN',
    'STARTTLS',
  ),
);

/** A session's input: commands with tags, some damaged. */
const input = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: command.map((text) => Buffer.from(`${text}\r\n`, 'utf8')) },
      { weight: 1, arbitrary: command.chain((text) => mutationsOf(Buffer.from(`${text}\r\n`, 'utf8'))) },
    ),
    { minLength: 1, maxLength: 8 },
  )
  .map((commands) => commands.map((bytes, index) => Buffer.concat([Buffer.from(`t${index} `), bytes])));

async function session(): Promise<RawLineClient> {
  const client = await RawLineClient.connect(server.imapPort as number);
  await client.until(/\* OK[^\r]*\r\n/);
  await client.command('a', `LOGIN ${account.email} ${account.password}`);
  await client.command('b', 'SELECT INBOX');
  return client;
}

describe('the IMAP command loop', () => {
  it('answers any command sequence without an internal error, and the next session works', async () => {
    await fc.assert(
      fc.asyncProperty(input, async (commands) => {
        const client = await session();
        let output = '';
        client.socket.on('data', (chunk: Buffer) => {
          output += chunk.toString('latin1');
        });
        for (const bytes of commands) client.send(bytes);
        // Whatever state the input left (a literal half sent, IDLE, a SASL exchange), NOOP after a
        // pause either gets an answer or the connection was closed with a reason.
        await new Promise((resolve) => setTimeout(resolve, 50));
        client.send('\r\n*\r\nDONE\r\nzz NOOP\r\n');
        await Promise.race([client.until(/zz (OK|BAD|NO)/, 2_000).catch(() => ''), client.waitClosed(2_000)]);
        client.close();
        expect(output).not.toMatch(/SERVERBUG|internal error/);

        const next = await session();
        const fetched = await next.command('c', 'UID FETCH 1:* (UID FLAGS)');
        expect(fetched).toMatch(/^c OK/m);
        next.close();
      }),
      // each run logs in twice (a password hash each): 25 runs keep the file under a minute
      { numRuns: Number(process.env.FUZZ_RUNS ?? 25) },
    );
  }, 90_000);
});
