import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SubmissionServerHandle, startSubmissionServer } from '../../src/smtp/submission-server.js';
import { type SenderWorld, senderWorld, startRecordingSmtp, verifyDkim } from '../sending/sending-helpers.js';
import { expectOk } from '../support/api.js';
import { installCertificate, makeCertificate } from '../support/certificates.js';
import { createAddress, inbox } from '../support/fixtures.js';
import { SmtpClient } from '../support/smtp-client.js';
import { startTestServer, startTestServerAsAdmin, stopAll, type TestServer } from '../support/test-server.js';
import { waitFor } from '../support/wait-for.js';

const run = promisify(execFile);
const HOST = 'mx.youju.test';
const PASSWORD = 'mailbox-pass-1';

/** A non-loopback address of this machine, to be a "remote" client; null when there is none. */
function externalAddress(): string | null {
  for (const list of Object.values(networkInterfaces())) {
    for (const entry of list ?? []) if (entry.family === 'IPv4' && !entry.internal) return entry.address;
  }
  return null;
}

const base64 = (text: string) => Buffer.from(text).toString('base64');

function message(from: string, to: string, subject: string, extra = ''): Buffer {
  return Buffer.from(
    `From: 张三 <${from}>\r\nTo: ${to}\r\n${extra}Subject: ${subject}\r\nMIME-Version: 1.0\r\n` +
      'Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n你好，这是客户端提交的邮件。\r\n',
  );
}

/**
 * SMTP submission (RFC 6409, RFC 8314) against a real server: Python's smtplib, nodemailer, curl
 * and a raw client log in over STARTTLS, implicit TLS and (from loopback) plain text, and the
 * message goes the web's sendEmail way: sent folder, DKIM, local delivery, the outbound queue.
 */
describe('SMTP submission', () => {
  let server: TestServer;
  let admin: string;
  let relay: Awaited<ReturnType<typeof startRecordingSmtp>>;
  let world: SenderWorld;
  let starttls: SubmissionServerHandle;
  let implicit: SubmissionServerHandle;
  let remote: SubmissionServerHandle | null = null;
  const remoteAddress = externalAddress();
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'youju-submit-'));
    relay = await startRecordingSmtp();
    ({ server, admin } = await startTestServerAsAdmin({
      env: { RELAY_URL: `smtp://127.0.0.1:${relay.port}`, QUEUE_POLL_MS: '200' },
      prepareDataDir: (dataDir) => installCertificate(dataDir, HOST, makeCertificate([HOST])),
    }));
    world = await senderWorld(server, 'submit', 'submit.test');
    await createAddress(server, { userToken: world.userToken, domainId: world.domainId }, 'lisi');
    const started = await startSubmissionServer(server.app, {
      port: 0,
      host: '127.0.0.1',
      closeWithApp: false,
    });
    const tls = await startSubmissionServer(server.app, {
      port: 0,
      host: '127.0.0.1',
      secure: true,
      closeWithApp: false,
    });
    if (!started || !tls) throw new Error('submission listeners did not start');
    starttls = started;
    implicit = tls;
    if (remoteAddress)
      remote = await startSubmissionServer(server.app, {
        port: 0,
        host: remoteAddress,
        closeWithApp: false,
      });
  });
  afterAll(async () => {
    await stopAll(starttls, implicit, remote, server, relay);
    await rm(work, { recursive: true, force: true });
  });

  async function sentList() {
    const { body } = await server.api('GET', 'user/getSentEmail?pageSize=100', { token: world.mailboxToken });
    expectOk(body);
    return body.data.list;
  }

  async function loggedIn(port = starttls.port): Promise<SmtpClient> {
    const client = await SmtpClient.connect(port);
    expect((await client.read()).code).toBe(220);
    expect((await client.command('EHLO client.test')).code).toBe(250);
    expect((await client.command('STARTTLS')).code).toBe(220);
    await client.startTls(HOST);
    expect((await client.command('EHLO client.test')).text).toMatch(/AUTH PLAIN LOGIN/);
    const auth = await client.command(`AUTH PLAIN ${base64(`\0${world.mailboxAddress}\0${PASSWORD}`)}`);
    expect(auth.code).toBe(235);
    return client;
  }

  it('Python smtplib: STARTTLS and AUTH LOGIN, a local and a remote recipient, Bcc stripped, DKIM-signed', async () => {
    const script = join(work, 'send.py');
    await writeFile(
      script,
      `
import smtplib, ssl, sys
from email.message import EmailMessage
port, user, password = int(sys.argv[1]), sys.argv[2], sys.argv[3]
msg = EmailMessage()
msg['From'] = user
msg['To'] = 'lisi@submit.test'
msg['Cc'] = 'far@remote.test'
msg['Bcc'] = 'hidden@remote.test'
msg['Subject'] = '来自 Python 的提交'
msg.set_content('李四你好：\\n这是 smtplib 发出的邮件。')
context = ssl.create_default_context()
context.check_hostname = False
context.verify_mode = ssl.CERT_NONE
with smtplib.SMTP('127.0.0.1', port, timeout=20) as s:
    s.starttls(context=context)
    s.ehlo()
    s.user, s.password = user, password
    code, _ = s.auth('LOGIN', s.auth_login, initial_response_ok=False)
    refused = s.send_message(msg)
    print(code, len(refused))
`,
    );
    const { stdout } = await run('python3', [script, String(starttls.port), world.mailboxAddress, PASSWORD]);
    expect(stdout.trim()).toBe('235 0');

    // The local recipient has it at once, through the inbound store as sendEmail's local mail.
    const received = await waitFor(
      async () => (await inbox(server, world.userToken, '&address=lisi@submit.test')).list[0],
      { what: 'the local recipient to receive it' },
    );
    expect(received).toMatchObject({ subject: '来自 Python 的提交' });

    // The sent folder (the web's 已发送) shows it with every recipient.
    const sent = (await sentList()).find((item) => item.subject === '来自 Python 的提交');
    expect(sent).toBeDefined();
    expect(sent?.to).toEqual(['lisi@submit.test']);
    expect(sent?.cc).toEqual(['far@remote.test']);
    expect(sent?.bcc).toEqual(['hidden@remote.test']);
    expect(sent?.deliveries.map((delivery) => delivery.rcpt).sort()).toEqual([
      'far@remote.test',
      'hidden@remote.test',
      'lisi@submit.test',
    ]);

    // The remote recipients reach the relay, DKIM-signed by the sender's domain, without Bcc.
    const relayed = await waitFor(
      () => relay.received.find((item) => item.rcptTo.includes('far@remote.test')) ?? null,
      { what: 'the relay to receive it', timeoutMs: 20_000 },
    );
    expect(relayed.mailFrom).toBe(world.mailboxAddress);
    expect(relayed.rcptTo.sort()).toEqual(['far@remote.test', 'hidden@remote.test']);
    const text = relayed.data.toString();
    expect(text).not.toMatch(/^Bcc:/im);
    expect(text).toMatch(/^Message-ID: <.+@/im);
    expect(text).toMatch(/^Date: /im);
    const dkim = await server.api('GET', `user/getDkim?id=${world.domainId}`, { token: world.userToken });
    expectOk(dkim.body);
    const verified = await verifyDkim(relayed.data, dkim.body.data.record);
    expect(verified.results[0]).toMatchObject({ signingDomain: 'submit.test', status: { result: 'pass' } });
  });

  it('nodemailer: implicit TLS with AUTH PLAIN, and STARTTLS with AUTH LOGIN', async () => {
    for (const [port, secure, authMethod] of [
      [implicit.port, true, 'PLAIN'],
      [starttls.port, false, 'LOGIN'],
    ] as const) {
      const transport = nodemailer.createTransport({
        host: '127.0.0.1',
        port,
        secure,
        requireTLS: !secure,
        authMethod,
        auth: { user: world.mailboxAddress, pass: PASSWORD },
        tls: { rejectUnauthorized: false },
      });
      const subject = `nodemailer ${authMethod} 测试`;
      const info = await transport.sendMail({
        from: { name: '张三', address: world.mailboxAddress },
        to: 'lisi@submit.test',
        subject,
        text: '你好',
      });
      transport.close();
      expect(info.accepted).toEqual(['lisi@submit.test']);
      expect(info.response).toMatch(/^250 /);
      await waitFor(
        async () =>
          (await inbox(server, world.userToken, '&address=lisi@submit.test')).list.find(
            (item) => item.subject === subject,
          ),
        { what: `${authMethod} message in the inbox` },
      );
    }
  });

  it('curl smtp:// from loopback logs in without TLS', async () => {
    const file = join(work, 'curl.eml');
    await writeFile(file, message(world.mailboxAddress, 'lisi@submit.test', 'curl 提交'));
    await run('curl', [
      '--silent',
      '--show-error',
      `smtp://127.0.0.1:${starttls.port}`,
      '--mail-from',
      world.mailboxAddress,
      '--mail-rcpt',
      'lisi@submit.test',
      '--user',
      `${world.mailboxAddress}:${PASSWORD}`,
      '--upload-file',
      file,
    ]);
    await waitFor(
      async () =>
        (await inbox(server, world.userToken, '&address=lisi@submit.test')).list.find(
          (item) => item.subject === 'curl 提交',
        ),
      { what: 'the curl message in the inbox' },
    );
  });

  it('does not start the implicit-TLS listener without a certificate, nor a listener that is off', async () => {
    const bare = await startTestServer();
    try {
      expect(
        await startSubmissionServer(bare.app, { port: 0, secure: true, closeWithApp: false }),
      ).toBeNull();
      expect(await startSubmissionServer(bare.app, { port: null })).toBeNull();
    } finally {
      await bare.close();
    }
  });

  it('caps sessions per source (421 beyond) and refuses blacklisted addresses (554) like port 25', async () => {
    const open: SmtpClient[] = [];
    try {
      for (let index = 0; index < 10; index++) {
        const client = await SmtpClient.connect(starttls.port, { localAddress: '127.0.0.5' });
        expect((await client.read()).code).toBe(220);
        open.push(client);
      }
      const over = await SmtpClient.connect(starttls.port, { localAddress: '127.0.0.5' });
      const refused = await over.read();
      expect(refused.code).toBe(421);
      expect(refused.text).toMatch(/^4\.7\.0 /);
      // Another source still gets in.
      const other = await SmtpClient.connect(starttls.port, { localAddress: '127.0.0.6' });
      expect((await other.read()).code).toBe(220);
      await other.quit();
    } finally {
      for (const client of open) await client.quit();
    }
    expectOk((await server.api('GET', 'waf/addBlacklistIP?ip=127.0.0.7', { token: admin })).body);
    const blocked = await SmtpClient.connect(starttls.port, { localAddress: '127.0.0.7' });
    expect((await blocked.read()).code).toBe(554);
  });

  it('refuses MAIL before AUTH with 530 5.7.0', async () => {
    const client = await SmtpClient.connect(starttls.port);
    await client.read();
    await client.command('EHLO client.test');
    const mail = await client.command(`MAIL FROM:<${world.mailboxAddress}>`);
    expect(mail.code).toBe(530);
    expect(mail.text).toMatch(/^5\.7\.0 /);
    await client.quit();
  });

  it('refuses another envelope sender, the null sender and another From with 553 5.7.1', async () => {
    const client = await loggedIn();
    for (const sender of ['someone@submit.test', '']) {
      const reply = await client.command(`MAIL FROM:<${sender}>`);
      expect(reply.code).toBe(553);
      expect(reply.text).toMatch(/^5\.7\.1 /);
    }
    expect((await client.command(`MAIL FROM:<${world.mailboxAddress}>`)).code).toBe(250);
    expect((await client.command('RCPT TO:<lisi@submit.test>')).code).toBe(250);
    const before = (await sentList()).length;
    const data = await client.data(message('boss@submit.test', 'lisi@submit.test', '冒名'));
    expect(data.code).toBe(553);
    expect(data.text).toMatch(/^5\.7\.1 /);
    // Two From addresses, one of them ours, is still someone else's message.
    await client.command(`MAIL FROM:<${world.mailboxAddress}>`);
    await client.command('RCPT TO:<lisi@submit.test>');
    const two = await client.data(
      Buffer.from(
        `From: ${world.mailboxAddress}, boss@submit.test\r\nTo: lisi@submit.test\r\nSubject: two\r\n\r\nx\r\n`,
      ),
    );
    expect(two.code).toBe(553);
    expect((await sentList()).length).toBe(before);
    await client.quit();
  });

  it('closes the session after three failed AUTHs, and throttles the account per source (454)', async () => {
    const client = await loggedInAsNobody();
    const wrong = `AUTH PLAIN ${base64(`\0${world.mailboxAddress}\0wrong-password`)}`;
    expect((await client.command(wrong)).code).toBe(535);
    const second = await client.command(wrong);
    expect(second.code).toBe(535);
    expect(second.text).toMatch(/^5\.7\.8 /);
    expect((await client.command(wrong)).code).toBe(421);
    expect((await client.read()).code).toBe(0);

    // A separate mailbox, so that the owner of the main one is not locked out for the other tests.
    const victim = await server.api('POST', 'user/createEmailAccount', {
      token: world.userToken,
      body: { domainId: world.domainId, localPart: 'victim', password: 'victim-pass-1' },
    });
    expectOk(victim.body);
    const codes: number[] = [];
    for (let attempt = 0; attempt < 7; attempt++) {
      const session = await loggedInAsNobody();
      codes.push((await session.command(`AUTH LOGIN ${base64('victim@submit.test')}`)).code);
      codes.push((await session.command(base64('not-the-password'))).code);
      await session.quit();
    }
    const answers = codes.filter((code) => code !== 334);
    expect(answers.slice(0, 5)).toEqual([535, 535, 535, 535, 535]);
    expect(answers.at(-1)).toBe(454);
    // Even the right password waits for the window to pass.
    const session = await loggedInAsNobody();
    expect((await session.command(`AUTH PLAIN ${base64('\0victim@submit.test\0victim-pass-1')}`)).code).toBe(
      454,
    );
    await session.quit();
  });

  async function loggedInAsNobody(): Promise<SmtpClient> {
    const client = await SmtpClient.connect(starttls.port);
    await client.read();
    await client.command('EHLO client.test');
    await client.command('STARTTLS');
    await client.startTls(HOST);
    await client.command('EHLO client.test');
    return client;
  }

  it('keeps remote clients to TLS: no AUTH offered or accepted before STARTTLS (538)', async (context) => {
    if (!remote || !remoteAddress) return context.skip();
    const client = await SmtpClient.connect(remote.port, { host: remoteAddress });
    expect((await client.read()).code).toBe(220);
    const ehlo = await client.command('EHLO client.test');
    expect(ehlo.text).toMatch(/STARTTLS/);
    expect(ehlo.text).not.toMatch(/AUTH/);
    const auth = await client.command(`AUTH PLAIN ${base64(`\0${world.mailboxAddress}\0${PASSWORD}`)}`);
    expect(auth.code).toBe(538);
    expect((await client.command(`MAIL FROM:<${world.mailboxAddress}>`)).code).toBe(530);
    expect((await client.command('STARTTLS')).code).toBe(220);
    await client.startTls(HOST);
    expect((await client.command('EHLO client.test')).text).toMatch(/AUTH PLAIN LOGIN/);
    expect(
      (await client.command(`AUTH PLAIN ${base64(`\0${world.mailboxAddress}\0${PASSWORD}`)}`)).code,
    ).toBe(235);
    await client.quit();
  });

  it('applies the limits: SIZE, recipients per message, the policy of visitor mailboxes', async () => {
    const client = await loggedIn();
    const size = await client.command(`MAIL FROM:<${world.mailboxAddress}> SIZE=999999999999`);
    expect(size.code).toBe(552);
    expect((await client.command(`MAIL FROM:<${world.mailboxAddress}>`)).code).toBe(250);
    for (let index = 0; index < 100; index++) {
      expect((await client.command(`RCPT TO:<r${index}@remote.test>`)).code).toBe(250);
    }
    const over = await client.command('RCPT TO:<r100@remote.test>');
    expect(over.code).toBe(452);
    expect(over.text).toMatch(/^4\.5\.3 /);
    await client.command('RSET');
    // An oversize DATA without a SIZE declaration is cut and refused after the terminating dot.
    await server.app.services.settings.update({ maxMessageBytes: 64 * 1024 });
    try {
      const big = Buffer.concat([
        message(world.mailboxAddress, 'lisi@submit.test', 'big'),
        Buffer.alloc(100 * 1024, 'a\r\n'),
      ]);
      await client.command(`MAIL FROM:<${world.mailboxAddress}>`);
      await client.command('RCPT TO:<lisi@submit.test>');
      const tooBig = await client.data(big);
      expect(tooBig.code).toBe(552);
    } finally {
      await server.app.services.settings.update({ maxMessageBytes: 25 * 1024 * 1024 });
    }
    await client.quit();

    // A mailbox a visitor registered sends inside the service only (anonymousSend off).
    const domains = await server.api('POST', 'user/editDomain', {
      token: world.userToken,
      body: { id: world.domainId, publicRegistration: true },
    });
    expectOk(domains.body);
    const visitor = await server.api('POST', 'regEmail', {
      body: { domainId: world.domainId, localPart: 'visitor', password: 'visitor-pass-1' },
    });
    expectOk(visitor.body);
    const session = await SmtpClient.connect(starttls.port);
    await session.read();
    await session.command('EHLO localhost');
    expect(
      (await session.command(`AUTH PLAIN ${base64('\0visitor@submit.test\0visitor-pass-1')}`)).code,
    ).toBe(235);
    expect((await session.command('MAIL FROM:<visitor@submit.test>')).code).toBe(250);
    const outside = await session.command('RCPT TO:<someone@remote.test>');
    expect(outside.code).toBe(550);
    expect(outside.text).toMatch(/^5\.7\.1 /);
    expect((await session.command('RCPT TO:<lisi@submit.test>')).code).toBe(250);
    await session.quit();
  });

  it('counts submissions against sendPerHour like sendEmail (451 4.7.1 beyond)', async () => {
    await server.api('POST', 'user/updateSetting', { token: admin, body: { system: { sendPerHour: 1 } } });
    try {
      const account = await server.api('POST', 'user/createEmailAccount', {
        token: world.userToken,
        body: { domainId: world.domainId, localPart: 'limited', password: 'limited-pass-1' },
      });
      expectOk(account.body);
      const replies: number[] = [];
      for (let attempt = 0; attempt < 2; attempt++) {
        const session = await SmtpClient.connect(starttls.port);
        await session.read();
        await session.command('EHLO localhost');
        await session.command(`AUTH PLAIN ${base64('\0limited@submit.test\0limited-pass-1')}`);
        await session.command('MAIL FROM:<limited@submit.test>');
        await session.command('RCPT TO:<lisi@submit.test>');
        replies.push((await session.data(message('limited@submit.test', 'lisi@submit.test', '限额'))).code);
        await session.quit();
      }
      expect(replies).toEqual([250, 451]);
    } finally {
      await server.api('POST', 'user/updateSetting', { token: admin, body: { system: { sendPerHour: 30 } } });
    }
  });
});
