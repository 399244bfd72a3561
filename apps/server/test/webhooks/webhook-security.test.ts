import { MAX_WEBHOOKS_PER_OWNER } from '@youju/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safePost } from '../../src/modules/webhooks/safe-post.js';
import { expectOk } from '../support/api.js';
import { createAddress, createUserWithDomain, type MailWorld } from '../support/fixtures.js';
import { startTestServer, stopAll, type TestServer } from '../support/test-server.js';
import { type Receiver, startReceiver } from './webhook-helpers.js';

/**
 * What webhooks must refuse: targets inside the server's network (server-side request forgery)
 * without WEBHOOK_ALLOW_PRIVATE, redirects, other accounts' webhooks, and input past the limits.
 */
let server: TestServer;
let receiver: Receiver;
let alice: MailWorld;
let bob: MailWorld;

/** A public address (example.com's): accepted, and never called by these tests. */
const PUBLIC_TARGET = 'http://93.184.216.34/hook';

beforeAll(async () => {
  receiver = await startReceiver({
    fallback: { status: 302, body: '', headers: { location: '/elsewhere' } },
  });
  server = await startTestServer();
  alice = await createUserWithDomain(server, 'alice');
  bob = await createUserWithDomain(server, 'bob');
});

afterAll(() => stopAll(server, receiver));

describe('private targets', () => {
  it.each([
    'http://127.0.0.1:8080/hook',
    'http://localhost:8080/hook',
    'http://LOCALHOST./hook',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[::ffff:7f00:1]/hook',
    'http://10.1.2.3/hook',
    'http://172.16.0.1/hook',
    'http://192.168.1.1/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://100.64.0.1/hook',
    'http://0.0.0.0/hook',
    'http://[fd00::1]/hook',
    'http://[fe80::1]/hook',
    'http://224.0.0.1/hook',
    'http://2130706433/hook',
    'http://0x7f.1/hook',
  ])('refuses %s without WEBHOOK_ALLOW_PRIVATE', async (url) => {
    const { body } = await server.api('POST', 'user/addWebhook', { token: alice.userToken, body: { url } });
    expect(body.error).toBe(400);
    expect(body.msg).toMatch(/WEBHOOK_ALLOW_PRIVATE|回调地址/);
  });

  it.each(['ftp://93.184.216.34/x', 'file:///etc/passwd', 'javascript:alert(1)', 'gopher://93.184.216.34/'])(
    'refuses the scheme of %s',
    async (url) => {
      const { body } = await server.api('POST', 'user/addWebhook', { token: alice.userToken, body: { url } });
      expect(body.error).toBe(400);
      expect(body.msg).toContain('回调地址');
    },
  );

  it('refuses a name resolving to loopback at delivery time too (the check made when connecting)', async () => {
    const outcome = await safePost(
      `http://localhost:${receiver.port}/x`,
      '{}',
      {},
      {
        allowPrivate: false,
        timeoutMs: 2000,
      },
    );
    expect(outcome).toMatchObject({ kind: 'error', refused: true });
    expect(receiver.received).toHaveLength(0);
  });

  it('does not follow redirects', async () => {
    const outcome = await safePost(
      `${receiver.url}/start`,
      '{}',
      {},
      { allowPrivate: true, timeoutMs: 2000 },
    );
    expect(outcome).toMatchObject({ kind: 'response', statusCode: 302 });
    expect(receiver.received.map((request) => request.path)).toEqual(['/start']);
  });

  it('refuses private targets on edit too', async () => {
    const added = await server.api('POST', 'user/addWebhook', {
      token: alice.userToken,
      body: { url: PUBLIC_TARGET },
    });
    expectOk(added.body);
    const { body } = await server.api('POST', 'user/editWebhook', {
      token: alice.userToken,
      body: { id: added.body.data.id, url: 'http://127.0.0.1:9/x' },
    });
    expect(body.error).toBe(400);
    await server.api('POST', 'user/delWebhook', { token: alice.userToken, body: { id: added.body.data.id } });
  });
});

describe('ownership', () => {
  it('lets nobody else see, edit, test, read the log of or delete a webhook', async () => {
    const added = await server.api('POST', 'user/addWebhook', {
      token: alice.userToken,
      body: { url: PUBLIC_TARGET },
    });
    expectOk(added.body);
    const id = added.body.data.id;

    const list = await server.api('GET', 'user/getWebhooks', { token: bob.userToken });
    expectOk(list.body);
    expect(list.body.data.map((hook) => hook.id)).not.toContain(id);

    const edit = await server.api('POST', 'user/editWebhook', {
      token: bob.userToken,
      body: { id, url: 'http://93.184.216.34/stolen', enabled: false },
    });
    expect(edit.body.error).toBe(404);
    const test = await server.api('POST', 'user/testWebhook', { token: bob.userToken, body: { id } });
    expect(test.body.error).toBe(404);
    const log = await server.api('GET', `user/getWebhookDeliveries?id=${id}`, { token: bob.userToken });
    expect(log.body.error).toBe(404);
    const del = await server.api('POST', 'user/delWebhook', { token: bob.userToken, body: { id } });
    expect(del.body.error).toBe(404);

    // Administrators too manage only their own webhooks (they are personal notification targets).
    const admin = await server.api('POST', 'user/delWebhook', { token: alice.adminToken, body: { id } });
    expect(admin.body.error).toBe(404);

    const mine = await server.api('GET', 'user/getWebhooks', { token: alice.userToken });
    expectOk(mine.body);
    expect(mine.body.data.find((hook) => hook.id === id)).toMatchObject({
      url: PUBLIC_TARGET,
      enabled: true,
    });
    expect(JSON.stringify(mine.body)).not.toContain(added.body.data.secret);
    const removed = await server.api('POST', 'user/delWebhook', { token: alice.userToken, body: { id } });
    expectOk(removed.body);
  });

  it("refuses an address filter on someone else's address", async () => {
    const bobs = await createAddress(server, bob, 'bobs-box');
    const { body } = await server.api('POST', 'user/addWebhook', {
      token: alice.userToken,
      body: { url: PUBLIC_TARGET, address: bobs.address },
    });
    expect(body.error).toBe(400);
    expect(body.msg).toContain('不是你的邮箱');
  });

  it('keeps mailbox sessions and visitors out', async () => {
    const box = await server.api('POST', 'regEmail', {
      body: { domainId: alice.domainId, password: 'box-password-1' },
    });
    expectOk(box.body);
    const asMailbox = await server.api('GET', 'user/getWebhooks', { token: box.body.data.token });
    expect(asMailbox.body.error).toBe(403);
    const anonymous = await server.api('GET', 'user/getWebhooks');
    expect(anonymous.body.error).toBe(302);
    const telegram = await server.api('POST', 'user/setTelegram', {
      token: box.body.data.token,
      body: { botToken: '1:AAAAAAAAAAAAAAAAAAAAAAAA', chatId: '1', enabled: true },
    });
    expect(telegram.body.error).toBe(403);
  });
});

describe('limits and bad input', () => {
  it(`caps an account at ${MAX_WEBHOOKS_PER_OWNER} webhooks, even asked in parallel`, async () => {
    const carol = await createUserWithDomain(server, 'carol');
    const results = await Promise.all(
      Array.from({ length: MAX_WEBHOOKS_PER_OWNER + 3 }, (_, index) =>
        server.api('POST', 'user/addWebhook', {
          token: carol.userToken,
          body: { url: `${PUBLIC_TARGET}/${index}` },
        }),
      ),
    );
    expect(results.filter((result) => result.body.error === 0)).toHaveLength(MAX_WEBHOOKS_PER_OWNER);
    const refused = results.filter((result) => result.body.error !== 0);
    expect(refused.every((result) => result.body.error === 409)).toBe(true);
    const list = await server.api('GET', 'user/getWebhooks', { token: carol.userToken });
    expectOk(list.body);
    expect(list.body.data).toHaveLength(MAX_WEBHOOKS_PER_OWNER);
  });

  it.each([
    [{ url: `http://93.184.216.34/${'a'.repeat(2100)}` }, '回调地址'],
    [{ url: 'not a url' }, '回调地址'],
    [{ url: PUBLIC_TARGET, events: ['mail.deleted'] }, '事件'],
    [{ url: PUBLIC_TARGET, events: [] }, '事件'],
    [{ url: PUBLIC_TARGET, secret: 'short' }, '签名密钥'],
    [{ url: PUBLIC_TARGET, address: 'not-an-address' }, '邮箱地址'],
    [{}, '回调地址'],
  ])('answers 400 naming the field for %j', async (body, field) => {
    const result = await server.api('POST', 'user/addWebhook', { token: alice.userToken, body });
    expect(result.status).toBe(400);
    expect(result.body.error).toBe(400);
    expect(result.body.msg).toContain(field);
  });

  it('answers 400 for ids that are not ids and 404 for ones that do not exist', async () => {
    const bad = await server.api('POST', 'user/editWebhook', { token: alice.userToken, body: { id: 'x' } });
    expect(bad.body.error).toBe(400);
    const missing = await server.api('GET', 'user/getWebhookDeliveries?id=999999999', {
      token: alice.userToken,
    });
    expect(missing.body.error).toBe(404);
    const huge = await server.api('GET', 'user/getWebhookDeliveries?id=1&pageSize=1000', {
      token: alice.userToken,
    });
    expect(huge.body.error).toBe(400);
  });

  it('uses the secret a person chose', async () => {
    const secret = 'my-own-secret-of-enough-length';
    const { body } = await server.api('POST', 'user/addWebhook', {
      token: alice.userToken,
      body: { url: PUBLIC_TARGET, secret },
    });
    expectOk(body);
    expect(body.data.secret).toBe(secret);
  });
});

describe('documentation', () => {
  it('tells receivers in the OpenAPI description how to verify the signature, in Node and Python', async () => {
    const response = await fetch(`${server.baseUrl}/api/openapi.json`);
    const document = (await response.json()) as { info: { description: string } };
    const { description } = document.info;
    for (const text of [
      'X-Youju-Signature',
      'X-Youju-Timestamp',
      'X-Youju-Delivery',
      'createHmac',
      'hmac.new',
    ]) {
      expect(description).toContain(text);
    }
  });
});
