import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRaw } from '../support/api.js';
import { inbox } from '../support/fixtures.js';
import { sendMail, simpleMessage } from '../support/smtp-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { createMailAccount, type MailAccount, RawLineClient } from './mail-client-helpers.js';

const run = promisify(execFile);

let server: TestServer;
let remote: TestServer;
let account: MailAccount;
const raws = new Map<string, Buffer>();

async function deliver(to: MailAccount, subject: string, body: string): Promise<void> {
  const content = simpleMessage(to.email, subject, body);
  expect((await sendMail(server.smtpPort, { to: [to.email], content })).data?.code).toBe(250);
}

async function pop3(port: number): Promise<RawLineClient> {
  const client = await RawLineClient.connect(port);
  await client.until(/^\+OK[^\r]*\r\n/);
  return client;
}

async function line(client: RawLineClient, command: string): Promise<string> {
  client.send(`${command}\r\n`);
  return client.until(/^(\+OK|-ERR|\+ )[^\r]*\r\n/m);
}

async function multiLine(client: RawLineClient, command: string): Promise<string> {
  client.send(`${command}\r\n`);
  return client.until(/(^-ERR[^\r]*\r\n)|(\r\n\.\r\n$)/);
}

beforeAll(async () => {
  server = await startTestServer({ mailClients: {} });
  account = await createMailAccount(server, 'pop');
  await deliver(account, 'first', '第一封\r\n.starts with a dot\r\n');
  await deliver(account, 'second', 'two');
  await deliver(account, 'third', 'three');
  for (const item of (await inbox(server, account.token)).list) {
    raws.set(item.subject, (await getRaw(server, `user/raw/${item.id}`, { token: account.token })).bytes);
  }
});
afterAll(async () => {
  await server.close();
  await remote?.close();
});

describe('POP3', () => {
  it('works with Python poplib: STAT, LIST, UIDL, RETR byte for byte (dot-stuffing undone), TOP', async () => {
    const script = `
import hashlib, poplib, sys
pop = poplib.POP3('127.0.0.1', int(sys.argv[1]))
pop.user(sys.argv[2])
pop.pass_(sys.argv[3])
count, size = pop.stat()
print('STAT', count)
print('UIDL', len(pop.uidl()[1]))
for number in range(1, count + 1):
    response, lines, octets = pop.retr(number)
    print('SHA', hashlib.sha256(b'\\r\\n'.join(lines) + b'\\r\\n').hexdigest())
response, lines, octets = pop.top(1, 0)
print('TOP', b'\\r\\n'.join(lines).decode('latin1').count('Subject:'))
pop.quit()
`;
    const { stdout } = await run(
      'python3',
      ['-c', script, String(server.pop3Port), account.email, account.password],
      {
        timeout: 30_000,
      },
    );
    expect(stdout).toMatch(/^STAT 3$/m);
    expect(stdout).toMatch(/^UIDL 3$/m);
    expect(stdout).toMatch(/^TOP 1$/m);
    const shas = [...stdout.matchAll(/^SHA ([0-9a-f]+)$/gm)].map((match) => match[1]);
    const expected = [...raws.values()].map((raw) => createHash('sha256').update(raw).digest('hex'));
    expect(shas.sort()).toEqual(expected.sort());
  });

  it('works with curl pop3://: RETR of message 1 byte for byte', async () => {
    const { stdout } = await run(
      'curl',
      ['-s', '--user', `${account.email}:${account.password}`, `pop3://127.0.0.1:${server.pop3Port}/1`],
      {
        timeout: 30_000,
        encoding: 'buffer',
      },
    );
    expect([...raws.values()].some((raw) => Buffer.compare(raw, stdout as unknown as Buffer) === 0)).toBe(
      true,
    );
  });

  it('deletes at QUIT only: RSET undoes, a dropped connection keeps, QUIT removes (on the web too)', async () => {
    const plain = Buffer.from(`\0${account.email}\0${account.password}`).toString('base64');
    const dropped = await pop3(server.pop3Port as number);
    expect(await line(dropped, `AUTH PLAIN ${plain}`)).toMatch(/^\+OK 3/);
    expect(await line(dropped, 'DELE 1')).toMatch(/^\+OK/);
    expect(await line(dropped, 'RETR 1')).toMatch(/^-ERR/);
    expect(await line(dropped, 'RSET')).toMatch(/^\+OK/);
    expect(await line(dropped, 'DELE 2')).toMatch(/^\+OK/);
    dropped.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await inbox(server, account.token)).total).toBe(3);

    const client = await pop3(server.pop3Port as number);
    client.send('AUTH PLAIN\r\n');
    await client.until(/^\+ \r\n/);
    expect(await line(client, plain)).toMatch(/^\+OK 3/);
    const uidl = await multiLine(client, 'UIDL');
    const firstId = /^1 (\S+)\r$/m.exec(uidl)?.[1];
    expect(await line(client, 'DELE 1')).toMatch(/^\+OK/);
    expect(await line(client, 'STAT')).toMatch(/^\+OK 2 /);
    expect(await line(client, 'QUIT')).toMatch(/^\+OK/);
    expect(await client.waitClosed()).toBe(true);
    const left = (await inbox(server, account.token)).list.map((item) => String(item.id));
    expect(left).toHaveLength(2);
    expect(left).not.toContain(firstId);
  });

  it('keeps mailboxes apart, refuses garbage and closes after three failed logins', async () => {
    const other = await createMailAccount(server, 'popother');
    const client = await pop3(server.pop3Port as number);
    expect(await line(client, 'STAT')).toMatch(/^-ERR/);
    expect(await line(client, 'RETR 1')).toMatch(/^-ERR/);
    expect(await line(client, `USER ${other.email}`)).toMatch(/^\+OK/);
    expect(await line(client, `PASS ${other.password}`)).toMatch(/^\+OK 0/);
    expect(await line(client, 'RETR 1')).toMatch(/^-ERR/);
    expect(await line(client, 'DELE 1')).toMatch(/^-ERR/);
    expect(await line(client, 'XYZZY')).toMatch(/^-ERR/);
    client.send(`${'A'.repeat(5000)}\r\n`);
    await client.until(/^-ERR/m);
    expect(await line(client, 'QUIT')).toMatch(/^\+OK/);
    expect((await inbox(server, account.token)).total).toBe(2);

    const guesser = await pop3(server.pop3Port as number);
    for (let attempt = 0; attempt < 3; attempt++) {
      expect(await line(guesser, `USER ${account.email}`)).toMatch(/^\+OK/);
      expect(await line(guesser, 'PASS wrong-password')).toMatch(/^-ERR \[AUTH\]/);
    }
    expect(await guesser.waitClosed()).toBe(true);
  });

  it('offers USER only after STLS to clients that are not on loopback', async () => {
    remote = await startTestServer({ mailClients: { loopbackIsRemote: true } });
    const owner = await createMailAccount(remote, 'poptls');
    const client = await pop3(remote.pop3Port as number);
    const capabilities = await multiLine(client, 'CAPA');
    expect(capabilities).toMatch(/^STLS\r$/m);
    expect(capabilities).not.toMatch(/^USER\r$/m);
    expect(await line(client, `USER ${owner.email}`)).toMatch(/^-ERR/);
    expect(await line(client, 'STLS')).toMatch(/^\+OK/);
    await client.startTls();
    expect(await multiLine(client, 'CAPA')).toMatch(/^USER\r$/m);
    expect(await line(client, `USER ${owner.email}`)).toMatch(/^\+OK/);
    expect(await line(client, `PASS ${owner.password}`)).toMatch(/^\+OK 0/);
    client.close();
  });
});
