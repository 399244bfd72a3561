import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk } from '../support/api.js';
import { addDomain, createUser } from '../support/fixtures.js';
import { startTestServerAsAdmin, type TestServer } from '../support/test-server.js';

/**
 * Anonymous spam: a one-click temporary mailbox (or one a visitor registered) could send to any
 * address on the internet, with no limit at all. Now it reaches only the service's own domains
 * unless the operator turns on anonymousSend, and every sender has hourly and daily limits that
 * hold under parallel requests.
 */
describe('sending policy', () => {
  let server: TestServer;
  let admin: string;
  let domain: { id: number; name: string };
  let owner: { id: number; token: string };

  beforeAll(async () => {
    // QUEUE_POLL_MS is long: these tests are about what is accepted, not about delivery.
    ({ server, admin } = await startTestServerAsAdmin({
      env: { QUEUE_POLL_MS: '3600000', TRUSTED_PROXIES: '127.0.0.1' },
    }));
    owner = await createUser(server, 'policy-owner');
    domain = await addDomain(server, owner.token, 'policy.test', { publicRegistration: true });
    await server.api('POST', 'user/createEmail', {
      token: owner.token,
      body: { domainId: domain.id, localPart: 'local-friend' },
    });
  });
  afterAll(async () => server?.close());

  async function visitorMailbox(password?: string): Promise<{ token: string; email: string }> {
    const { body } = await server.api('POST', 'regEmail', {
      body: { domainId: domain.id, ...(password ? { password } : {}) },
      headers: { 'x-forwarded-for': `198.51.100.${Math.floor(Math.random() * 250) + 1}` },
    });
    if (body.error !== 0) throw new Error(JSON.stringify(body));
    return body.data;
  }

  const send = (box: { token: string; email: string }, to: string[]) =>
    server.api('POST', 'user/sendEmail', {
      token: box.token,
      body: { from: box.email, to, subject: '你好', text: '测试' },
    });

  it('keeps temporary and visitor-registered mailboxes inside the service', async () => {
    for (const box of [await visitorMailbox(), await visitorMailbox('visitor-pass-1')]) {
      const outside = await send(box, ['someone@gmail.com']);
      expect(outside.status).toBe(403);
      expect(outside.body.msg).toMatch(/只能发信给本站域名/);
      // a mix is refused whole, nothing is queued
      expect((await send(box, ['local-friend@policy.test', 'x@example.com'])).status).toBe(403);
      const inside = await send(box, ['local-friend@policy.test']);
      expectOk(inside.body);
    }
  });

  it('lets them out when the operator allows it', async () => {
    await server.api('POST', 'user/updateSetting', {
      token: admin,
      body: { system: { anonymousSend: true } },
    });
    try {
      const box = await visitorMailbox();
      expect((await send(box, ['someone@gmail.com'])).body.error).toBe(0);
    } finally {
      await server.api('POST', 'user/updateSetting', {
        token: admin,
        body: { system: { anonymousSend: false } },
      });
    }
  });

  it('holds the hourly limit exactly under a parallel burst', async () => {
    const account = await server.api('POST', 'user/createEmailAccount', {
      token: owner.token,
      body: { domainId: domain.id, localPart: 'bulk', password: 'bulk-pass-1' },
    });
    expectOk(account.body);
    const login = await server.api('POST', 'loginEmail', {
      body: { email: 'bulk@policy.test', password: 'bulk-pass-1' },
    });
    expectOk(login.body);
    const box = { token: login.body.data.token, email: 'bulk@policy.test' };
    const answers = await Promise.all(Array.from({ length: 40 }, () => send(box, ['someone@example.com'])));
    // sendPerHour defaults to 30
    expect(answers.filter((answer) => answer.body.error === 0)).toHaveLength(30);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(10);
    expect(refused[0]?.body.msg).toMatch(/每小时最多发送 30 封/);
    // emptying the sent folder does not refill the allowance
    const sent = await server.api('GET', 'user/getSentEmail?pageSize=100', { token: box.token });
    expectOk(sent.body);
    const ids = sent.body.data.list.map((item) => item.id);
    expect(
      (await server.api('POST', 'user/delSentEmail', { token: box.token, body: { ids } })).body.error,
    ).toBe(0);
    expect((await send(box, ['someone@example.com'])).status).toBe(429);
  });
});
