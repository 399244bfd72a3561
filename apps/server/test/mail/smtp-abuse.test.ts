import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABUSE } from '../../src/smtp/smtp-server.js';
import { expectOk } from '../support/api.js';
import { createAddress, createUserWithDomain } from '../support/fixtures.js';
import { SmtpClient, smtpGreeting } from '../support/smtp-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { waitFor } from '../support/wait-for.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

async function blacklist() {
  const { body } = await server.api('GET', 'waf/getBlacklist', { token: await server.adminToken() });
  expectOk(body);
  return body.data;
}

describe('SMTP abuse puts the address on the blacklist', () => {
  it('bans a client that guesses addresses, and only that client', async () => {
    const world = await createUserWithDomain(server, 'abuse');
    const known = await createAddress(server, world, 'real');
    const harvester = '127.0.0.5';
    const client = await SmtpClient.connect(server.smtpPort, { localAddress: harvester });
    expect((await client.read()).code).toBe(220);
    await client.command('EHLO harvester.test');
    await client.command('MAIL FROM:<spam@harvester.test>');
    // just under the limit: still served
    for (let i = 1; i < ABUSE.limits['unknown-recipient']; i++) {
      expect((await client.command(`RCPT TO:<guess${i}@${world.domain}>`)).code).toBe(550);
    }
    expect((await blacklist()).some((entry) => entry.ip === harvester)).toBe(false);
    expect((await client.command(`RCPT TO:<${known.address}>`)).code).toBe(250);
    // the limit reached: banned, with reason and expiry
    expect((await client.command(`RCPT TO:<last-guess@${world.domain}>`)).code).toBe(550);
    await client.quit();
    const entry = (await blacklist()).find((item) => item.ip === harvester);
    expect(entry?.reason).toMatch(/不存在的邮箱/);
    expect(entry?.source).toBe('smtp');
    expect(Date.parse(entry?.expiresAt ?? '')).toBeGreaterThan(Date.now() + 50 * 60_000);

    // an automatic ban is temporary: 421, so a shared address's legitimate mail is retried later
    await waitFor(async () => (await smtpGreeting(server.smtpPort, harvester)) === 421, {
      timeoutMs: 3000,
      what: 'the harvester to be greeted with 421',
    });
    expect(await smtpGreeting(server.smtpPort, '127.0.0.1')).toBe(220);
  });

  it('bans a client that keeps sending bare line breaks (SMTP smuggling attempts)', async () => {
    const world = await createUserWithDomain(server, 'smuggle');
    const address = await createAddress(server, world, 'target');
    const smuggler = '127.0.0.6';
    for (let attempt = 0; attempt < ABUSE.limits['bare-line-break']; attempt++) {
      const client = await SmtpClient.connect(server.smtpPort, { localAddress: smuggler });
      expect((await client.read()).code).toBe(220);
      await client.command('EHLO smuggler.test');
      await client.command('MAIL FROM:<a@smuggler.test>');
      await client.command(`RCPT TO:<${address.address}>`);
      const reply = await client.data(Buffer.from('Subject: x\r\n\r\nhello\n.\nMAIL FROM:<evil@x>\r\n'));
      expect(reply.code).toBe(554);
      await client.quit();
    }
    await waitFor(async () => (await smtpGreeting(server.smtpPort, smuggler)) === 421, {
      timeoutMs: 3000,
      what: 'the smuggler to be greeted with 421',
    });
  });
});
