import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendMail, simpleMessage } from '../support/smtp-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { createMailAccount, type MailAccount, RawLineClient } from './mail-client-helpers.js';

/**
 * What a hostile logged-in client can make one IMAP command cost (imap-session.ts read as an
 * attacker): memory held for one FETCH, sequence sets as long as a command line may be, and the
 * answers that spread huge result lists into function arguments.
 */
let server: TestServer;
let account: MailAccount;
const BIG_BODY = `${'0123456789abcdef'.repeat(4)}\r\n`.repeat(5_000); // some 330 KB in 66-octet lines

beforeAll(async () => {
  server = await startTestServer({ mailClients: {} });
  account = await createMailAccount(server, 'harden');
  const big = simpleMessage(account.email, 'big', BIG_BODY);
  expect((await sendMail(server.smtpPort, { to: [account.email], content: big })).data?.code).toBe(250);
  for (const subject of ['two', 'three', 'four', 'five']) {
    const content = simpleMessage(account.email, subject, subject);
    expect((await sendMail(server.smtpPort, { to: [account.email], content })).data?.code).toBe(250);
  }
});
afterAll(async () => server?.close());

async function loggedIn(): Promise<RawLineClient> {
  const client = await RawLineClient.connect(server.imapPort as number);
  await client.until(/\r\n/);
  expect(await client.command('l', `LOGIN ${account.email} ${account.password}`)).toMatch(/^l OK/m);
  expect(await client.command('s', 'SELECT INBOX')).toMatch(/^s OK/m);
  return client;
}

describe('IMAP: the cost of one command stays bounded', () => {
  it('streams a FETCH that names the same large section hundreds of times instead of holding every copy', async () => {
    const client = await loggedIn();
    const copies = 200; // some 66 MB of response for a client that does not read
    const before = process.memoryUsage().arrayBuffers;
    client.socket.pause();
    client.send(`f FETCH 1 (${Array.from({ length: copies }, () => 'BODY.PEEK[]').join(' ')})\r\n`);
    let peak = 0;
    for (let look = 0; look < 20; look++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      peak = Math.max(peak, process.memoryUsage().arrayBuffers - before);
    }
    // Before: every copy was made before the first byte went out (≥ 66 MB). Now: the socket's
    // buffers and one copy.
    expect(peak).toBeLessThan(32 * 1024 * 1024);
    // Counted here, not collected: the helper's buffer would copy 60 MB over and over.
    client.socket.removeAllListeners('data');
    let received = 0;
    let tail = '';
    const done = new Promise<void>((resolve) => {
      client.socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
        tail = (tail + chunk.toString('latin1')).slice(-200);
        if (/\r\nf OK[^\r]*\r\n$/.test(tail)) resolve();
      });
    });
    client.socket.resume();
    await done;
    expect(received).toBeGreaterThan(copies * BIG_BODY.length);
    client.close();
  }, 180_000);

  it('answers UID FETCH, UID SEARCH and UID STORE with a set of 10,000 ranges', async () => {
    const client = await loggedIn();
    const set = Array.from({ length: 10_000 }, (_, index) => String(index * 2 + 1)).join(',');
    const fetched = await client.command('f', `UID FETCH ${set} (FLAGS)`);
    expect(fetched.match(/^\* \d+ FETCH/gm)).toHaveLength(3); // UIDs 1, 3, 5
    const searched = await client.command('s', `UID SEARCH UID ${set} NOT UID 3`);
    expect(searched).toMatch(/^\* SEARCH 1 5\r\n/m);
    const stored = await client.command('t', `UID STORE ${set} +FLAGS.SILENT (\\Flagged)`);
    expect(stored).toMatch(/^t OK/m);
    const flagged = await client.command('u', 'UID SEARCH FLAGGED');
    expect(flagged).toMatch(/^\* SEARCH 1 3 5\r\n/m);
    client.close();
  });

  it('tells only the changed messages after a silent STORE under CONDSTORE, and ESEARCH MIN/MAX in order', async () => {
    const client = await loggedIn();
    expect(await client.command('e', 'ENABLE CONDSTORE')).toMatch(/^e OK/m);
    expect(await client.command('a', 'UID STORE 1:* -FLAGS.SILENT (\\Seen)')).toMatch(/^a OK/m);
    expect(await client.command('b', 'UID STORE 2 +FLAGS.SILENT (\\Seen)')).toMatch(/^b OK/m);
    const silent = await client.command('c', 'UID STORE 1:* +FLAGS.SILENT (\\Seen)');
    // RFC 7162 section 3.1.3: under CONDSTORE a silent STORE still reports the new MODSEQ of what it changed
    expect(silent.match(/^\* \d+ FETCH/gm)).toHaveLength(4);
    expect(silent).not.toMatch(/UID 2 /);
    const esearch = await client.command('d', 'UID SEARCH RETURN (MIN MAX COUNT) ALL');
    expect(esearch).toMatch(/^\* ESEARCH \(TAG "d"\) UID MIN 1 MAX 5 COUNT 5\r\n/m);
    client.close();
  });
});
