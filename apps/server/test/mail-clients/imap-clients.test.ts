import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { type TLSSocket, connect as tlsConnect } from 'node:tls';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRaw } from '../support/api.js';
import { installCertificate, makeCertificate, type PemPair } from '../support/certificates.js';
import { inbox } from '../support/fixtures.js';
import { sendMail, simpleMessage } from '../support/smtp-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { createMailAccount, type MailAccount, RawLineClient } from './mail-client-helpers.js';

const run = promisify(execFile);
const HOST = 'mail.clients.youju.test';

let server: TestServer;
let account: MailAccount;
let a: PemPair;
let raw: Buffer;

beforeAll(async () => {
  a = makeCertificate([HOST]);
  server = await startTestServer({
    env: { MAIL_HOSTNAME: HOST },
    // Loopback clients count as remote here: LOGIN only after TLS, as for any other client.
    mailClients: { loopbackIsRemote: true },
    prepareDataDir: (dataDir) => installCertificate(dataDir, HOST, a),
  });
  account = await createMailAccount(server, 'tls');
  const content = simpleMessage(account.email, '=?UTF-8?B?5a6i5oi356uv?=', '客户端测试\r\n.leading dot\r\n');
  expect((await sendMail(server.smtpPort, { to: [account.email], content })).data?.code).toBe(250);
  const [item] = (await inbox(server, account.token)).list;
  raw = (await getRaw(server, `user/raw/${item?.id}`, { token: account.token })).bytes;
});
afterAll(async () => server.close());

describe('IMAP login needs TLS for clients that are not on loopback', () => {
  it('announces LOGINDISABLED and STARTTLS, refuses LOGIN in plain text, and logs in after STARTTLS', async () => {
    const client = await RawLineClient.connect(server.imapPort as number);
    const greeting = await client.until(/\r\n/);
    expect(greeting).toMatch(/LOGINDISABLED/);
    expect(greeting).toMatch(/STARTTLS/);
    expect(greeting).not.toMatch(/AUTH=PLAIN/);
    expect(await client.command('a', `LOGIN ${account.email} ${account.password}`)).toMatch(
      /^a NO \[PRIVACYREQUIRED\]/m,
    );
    // A command sent with STARTTLS, before the handshake, is dropped (no plaintext injection).
    client.send('b STARTTLS\r\nc CAPABILITY\r\n');
    expect(await client.until(/b OK[^\r]*\r\n/)).not.toMatch(/^c /m);
    await client.startTls();
    const capability = await client.command('d', 'CAPABILITY');
    expect(capability).toMatch(/AUTH=PLAIN/);
    expect(capability).not.toMatch(/^c /m);
    const plain = Buffer.from(`\0${account.email}\0${account.password}`).toString('base64');
    expect(await client.command('e', `AUTHENTICATE PLAIN ${plain}`)).toMatch(/^e OK/m);
    expect(await client.command('f', 'SELECT INBOX')).toMatch(/\* 1 EXISTS/);
    client.close();
  });

  it('serves IMAPS with the installed certificate', async () => {
    const socket: TLSSocket = tlsConnect({
      host: '127.0.0.1',
      port: server.imapsPort as number,
      servername: HOST,
      rejectUnauthorized: false,
    });
    await new Promise((resolve) => socket.once('secureConnect', resolve));
    expect(socket.getPeerCertificate().fingerprint256).toBe(new X509Certificate(a.cert).fingerprint256);
    const greeting = await new Promise<string>((resolve) =>
      socket.once('data', (chunk: Buffer) => resolve(chunk.toString())),
    );
    expect(greeting).toMatch(/AUTH=PLAIN/);
    expect(greeting).not.toMatch(/LOGINDISABLED/);
    socket.destroy();
  });
});

describe('IMAP from other clients', () => {
  it('works with Python imaplib over IMAPS: login, list, search, fetch byte for byte', async () => {
    const script = `
import hashlib, imaplib, ssl, sys
context = ssl.create_default_context()
context.check_hostname = False
context.verify_mode = ssl.CERT_NONE
imap = imaplib.IMAP4_SSL('127.0.0.1', int(sys.argv[1]), ssl_context=context)
imap.login(sys.argv[2], sys.argv[3])
status, folders = imap.list()
print('LIST', status, len(folders))
status, data = imap.select('INBOX')
print('SELECT', status, data[0].decode())
# 8-bit text goes as a literal (RFC 3501 section 4.3): imaplib sends imap.literal as one
imap.literal = '客户端'.encode('utf-8')
status, data = imap.uid('SEARCH', 'CHARSET', 'UTF-8', 'BODY')
uids = data[0].split()
print('SEARCH', status, len(uids))
status, data = imap.uid('FETCH', uids[0], '(BODY.PEEK[])')
print('SHA', hashlib.sha256(data[0][1]).hexdigest())
imap.logout()
`;
    const { stdout } = await run(
      'python3',
      ['-c', script, String(server.imapsPort), account.email, account.password],
      {
        timeout: 30_000,
      },
    );
    expect(stdout).toMatch(/^LIST OK 5$/m);
    expect(stdout).toMatch(/^SELECT OK 1$/m);
    expect(stdout).toMatch(/^SEARCH OK 1$/m);
    const sha = (await import('node:crypto')).createHash('sha256').update(raw).digest('hex');
    expect(stdout).toMatch(new RegExp(`^SHA ${sha}$`, 'm'));
  });

  it('works with curl imaps://: the message by UID, byte for byte', async () => {
    const { stdout } = await run(
      'curl',
      [
        '-sk',
        '--user',
        `${account.email}:${account.password}`,
        `imaps://127.0.0.1:${server.imapsPort}/INBOX;UID=1`,
      ],
      { timeout: 30_000, encoding: 'buffer' },
    );
    expect(Buffer.compare(stdout as unknown as Buffer, raw)).toBe(0);
  });
});
