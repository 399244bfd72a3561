import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRaw } from '../support/api.js';
import { createAddress, createUserWithDomain, inbox } from '../support/fixtures.js';
import { SmtpClient, sendMail, simpleMessage } from '../support/smtp-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The auto-ban lost mail: thirty unknown recipients banned an address for an hour with a permanent
 * 554 (so a large provider's shared address bounced every later message), loopback was banned too,
 * and Python's smtplib sending bytes with LF line ends was refused and then banned.
 */
describe('bans that lose no mail', () => {
  let server: TestServer;
  let address: string;
  let userToken: string;
  beforeAll(async () => {
    server = await startTestServer();
    const world = await createUserWithDomain(server, 'bans');
    userToken = world.userToken;
    address = (await createAddress(server, world, 'inbox')).address;
  });
  afterAll(async () => server?.close());

  it('accepts mail with bare LF line ends from Python’s smtplib, stored with CRLF', async () => {
    // bytes, not str: smtplib then sends the LF line ends as they are (it dot-stuffs them too)
    const script = [
      'import smtplib, sys',
      'to = sys.argv[2]',
      'message = ("From: py@sender.example\\nTo: %s\\nSubject: lf-only\\n\\nline one\\n.starts with a dot\\nline three\\n" % to).encode()',
      'for i in range(5):',
      '    with smtplib.SMTP("127.0.0.1", int(sys.argv[1])) as client:',
      '        client.sendmail("py@sender.example", [to], message)',
      'print("sent")',
    ].join('\n');
    // Asynchronously: the server under test runs in this process and must keep answering.
    const run = await promisify(execFile)('python3', ['-c', script, String(server.smtpPort), address], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('sent');
    const list = await inbox(server, userToken, `&address=${encodeURIComponent(address)}&q=lf-only`);
    expect(list.total).toBe(5);
    const raw = await getRaw(server, `user/raw/${list.list[0]?.id}`, { token: userToken });
    const bytes = raw.bytes.toString('latin1');
    expect(bytes).toContain('Subject: lf-only\r\n\r\nline one\r\n.starts with a dot\r\nline three\r\n');
    expect(bytes.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(await server.app.services.firewall.isBlocked('127.0.0.1')).toBe(false);
  });

  it('still refuses the six smuggling sequences, without a permanent ban', async () => {
    for (const sequence of ['\n.\n', '\n.\r\n', '\r\n.\n', '\r.\r', '\r\n.\r', '\n.\r']) {
      const content = Buffer.from(
        `From: a@sender.example\r\nTo: ${address}\r\nSubject: smuggle\r\n\r\nhello${sequence}MAIL FROM:<x@evil.example>\r\nRCPT TO:<${address}>\r\nDATA\r\nSubject: smuggled\r\n\r\nowned\r\n`,
        'latin1',
      );
      const result = await sendMail(server.smtpPort, { to: [address], content });
      expect(result.data?.code, JSON.stringify(sequence)).toBe(554);
      expect(result.data?.text).toMatch(/^5\.6\.0/);
    }
    const list = await inbox(server, userToken, '&q=smuggled');
    expect(list.total).toBe(0);
    // loopback is never banned, so it still gets its greeting
    const client = await SmtpClient.connect(server.smtpPort);
    expect((await client.read()).code).toBe(220);
    await client.quit();
  });

  it('never bans 127.0.0.1 for probing, however many unknown addresses it tries', async () => {
    const client = await SmtpClient.connect(server.smtpPort, { localAddress: '127.0.0.1' });
    await client.read();
    await client.command('EHLO prober.example');
    await client.command('MAIL FROM:<p@prober.example>');
    for (let i = 0; i < 150; i++) {
      const reply = await client.command(`RCPT TO:<nobody-${i}@bans.youju.test>`);
      if (reply.code === 452) {
        await client.command('RSET');
        await client.command('MAIL FROM:<p@prober.example>');
      }
    }
    await client.quit();
    expect(await server.app.services.firewall.isBlocked('127.0.0.1')).toBe(false);
    expect(
      (
        await sendMail(server.smtpPort, {
          to: [address],
          content: simpleMessage(address, 'after probing', 'ok'),
        })
      ).data?.code,
    ).toBe(250);
  });

  it('does not take mail to a recently deleted address for probing', async () => {
    const world = await createUserWithDomain(server, 'retired');
    const gone = await createAddress(server, world, 'expired-box');
    await server.api('DELETE', `user/deleteEmail/${gone.id}`, { token: world.userToken });
    // a large provider's shared address keeps delivering to the expired temporary mailbox
    const client = await SmtpClient.connect(server.smtpPort, { localAddress: '127.0.0.7' });
    expect((await client.read()).code).toBe(220);
    await client.command('EHLO provider.example');
    for (let message = 0; message < 3; message++) {
      await client.command('MAIL FROM:<news@provider.example>');
      for (let i = 0; i < 60; i++) expect((await client.command(`RCPT TO:<${gone.address}>`)).code).toBe(550);
      await client.command('RSET');
    }
    await client.quit();
    expect(await server.app.services.firewall.isBlocked('127.0.0.7')).toBe(false);
  });

  it('never bans an address on the operator’s allow-list, and bans others temporarily', async () => {
    const admin = await server.adminToken();
    await server.api('POST', 'user/updateSetting', {
      token: admin,
      body: { system: { banAllowList: ['198.51.100.0/24'] } },
    });
    await server.app.services.firewall.ban('198.51.100.7', 'test', 60, 'smtp');
    expect(await server.app.services.firewall.isBlocked('198.51.100.7')).toBe(false);
    await server.app.services.firewall.ban('203.0.113.7', 'test', 60, 'smtp');
    expect(await server.app.services.firewall.blockOf('203.0.113.7')).toMatchObject({ automatic: true });
  });

  it('answers an automatic ban with 421 on SMTP and 429 on HTTP, an operator’s entry with 554 and 403', async () => {
    await server.app.services.firewall.ban('127.0.0.5', 'probing', 1, 'smtp');
    const banned = await SmtpClient.connect(server.smtpPort, { localAddress: '127.0.0.5' });
    const greeting = await banned.read();
    expect(greeting.code).toBe(421);
    expect(greeting.text).toMatch(/^4\.7\.0/);
    await banned.quit();
    await server.app.services.firewall.block('127.0.0.6', 'spammer', null, 'manual');
    const listed = await SmtpClient.connect(server.smtpPort, { localAddress: '127.0.0.6' });
    expect((await listed.read()).code).toBe(554);
    await listed.quit();

    // HTTP: the same entries as seen by the web guard (the test client is 127.0.0.1, so a short
    // automatic entry for it, removed at once).
    await server.app.services.firewall.block('127.0.0.1', 'login', Date.now() + 120_000, 'login');
    const http = await server.api('GET', 'getVar');
    await server.app.services.firewall.unblock('127.0.0.1');
    expect(http.status).toBe(429);
    expect(http.body.msg).toMatch(/临时限制/);
  });
});
