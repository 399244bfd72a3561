import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertWebhookDelivery,
  leaseDueWebhookDeliveries,
  listDueWebhookDeliveries,
  listLeasedWebhookDeliveries,
} from '../../src/db/repositories/webhook-repo.js';
import { expectOk } from '../support/api.js';
import { createAddress, createUserWithDomain, type MailWorld } from '../support/fixtures.js';
import { sendMail, simpleMessage } from '../support/smtp-client.js';
import { startTestServer, stopAll, type TestServer } from '../support/test-server.js';
import { waitFor } from '../support/wait-for.js';
import { type Receiver, startReceiver, verifySignature } from './webhook-helpers.js';

/**
 * Webhooks end to end: mail over the real SMTP listener, the real worker, a real HTTP receiver on
 * loopback (allowed here with WEBHOOK_ALLOW_PRIVATE=1; refusals are in webhook-security.test.ts).
 */
let server: TestServer;
let receiver: Receiver;
let world: MailWorld;

beforeAll(async () => {
  receiver = await startReceiver();
  server = await startTestServer({
    env: {
      WEBHOOK_ALLOW_PRIVATE: '1',
      WEBHOOK_POLL_MS: '100',
      WEBHOOK_RETRY_BASE_MS: '300',
      PUBLIC_URL: 'https://mail.youju.test/',
    },
  });
  world = await createUserWithDomain(server, 'hook');
});

afterAll(() => stopAll(server, receiver));

async function addWebhook(path: string, extra: Record<string, unknown> = {}) {
  const { body } = await server.api('POST', 'user/addWebhook', {
    token: world.userToken,
    body: { url: `${receiver.url}${path}`, ...extra },
  });
  expectOk(body);
  return body.data;
}

const postsTo = (path: string) => receiver.received.filter((request) => request.path === path);

describe('webhook delivery', () => {
  it('POSTs a signed mail.received with the message fields, code included', async () => {
    const { address } = await createAddress(server, world, 'signed');
    const hook = await addWebhook('/signed');
    expect(hook.secret).toMatch(/^whsec_[0-9a-f]{48}$/);
    expect(hook.events).toEqual(['mail.received']);
    const long = '验'.repeat(3000);
    const result = await sendMail(server.smtpPort, {
      to: [address],
      content: simpleMessage(address, '您的登录验证码', `您的验证码是 482913，5 分钟内有效。\r\n${long}`),
    });
    expect(result.data?.code).toBe(250);

    await waitFor(() => postsTo('/signed').length === 1, { what: 'the webhook POST' });
    const [post] = postsTo('/signed');
    if (!post) throw new Error('no post');
    expect(post.method).toBe('POST');
    expect(post.headers['content-type']).toMatch(/^application\/json/);
    expect(post.headers['x-youju-event']).toBe('mail.received');
    expect(post.headers['x-youju-delivery']).toMatch(/^[0-9a-f]{32}$/);
    const timestamp = Number(post.headers['x-youju-timestamp']);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(60);
    expect(verifySignature(hook.secret, post.headers, post.body)).toBe(true);
    expect(verifySignature('another-secret-entirely', post.headers, post.body)).toBe(false);

    const payload = JSON.parse(post.body) as Record<string, unknown>;
    expect(Object.keys(payload).sort()).toEqual(
      ['address', 'code', 'event', 'folder', 'from', 'id', 'receivedAt', 'subject', 'text'].sort(),
    );
    expect(payload).toMatchObject({
      event: 'mail.received',
      address,
      from: 'tester@sender.example',
      subject: '您的登录验证码',
      code: '482913',
      folder: 'inbox',
    });
    expect(typeof payload.id).toBe('number');
    expect(new Date(String(payload.receivedAt)).toISOString()).toBe(payload.receivedAt);
    // text is cut at 4 KB of UTF-8, on a character boundary
    const text = String(payload.text);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
    expect(Buffer.byteLength(text)).toBeGreaterThan(4000);
    expect(text.startsWith('您的验证码是 482913')).toBe(true);
    expect(text).not.toContain('\uFFFD');

    const log = await server.api('GET', `user/getWebhookDeliveries?id=${hook.id}`, {
      token: world.userToken,
    });
    expectOk(log.body);
    expect(log.body.data.total).toBe(1);
    expect(log.body.data.list[0]).toMatchObject({
      event: 'mail.received',
      status: 'delivered',
      attempts: 1,
      responseCode: 200,
      responseCodes: [200],
      lastError: null,
    });
    const list = await server.api('GET', 'user/getWebhooks', { token: world.userToken });
    expectOk(list.body);
    const listed = list.body.data.find((item) => item.id === hook.id);
    expect(listed?.lastStatus).toMatchObject({ status: 'delivered', responseCode: 200 });
    // the secret is shown once, at creation
    expect(JSON.stringify(list.body)).not.toContain(hook.secret);
  });

  it('retries a receiver answering 500 and records every code', async () => {
    const { address } = await createAddress(server, world, 'retry');
    const hook = await addWebhook('/flaky', { address });
    const seen: number[] = [];
    // A receiver of its own that answers 500 twice, then 200.
    const flaky = await startReceiver({
      answers: [500, 500].map((status) => ({ status, body: 'no' })),
      fallback: 200,
    });
    try {
      const edited = await server.api('POST', 'user/editWebhook', {
        token: world.userToken,
        body: { id: hook.id, url: `${flaky.url}/flaky` },
      });
      expectOk(edited.body);
      const result = await sendMail(server.smtpPort, {
        to: [address],
        content: simpleMessage(address, 'retry me', 'hello'),
      });
      expect(result.data?.code).toBe(250);
      await waitFor(() => flaky.received.length >= 3, { timeoutMs: 20_000, what: 'three attempts' });
      for (const request of flaky.received) seen.push(Number(request.at));
      // the same delivery id on every attempt, so the receiver can drop repeats
      const ids = new Set(flaky.received.map((request) => request.headers['x-youju-delivery']));
      expect(ids.size).toBe(1);
      // backoff: the second wait is longer than the first
      const [first, second, third] = seen as [number, number, number];
      expect(second - first).toBeGreaterThanOrEqual(250);
      expect(third - second).toBeGreaterThanOrEqual(500);
      await waitFor(
        async () => {
          const log = await server.api('GET', `user/getWebhookDeliveries?id=${hook.id}`, {
            token: world.userToken,
          });
          expectOk(log.body);
          return log.body.data.list[0]?.status === 'delivered' ? log.body.data.list[0] : null;
        },
        { what: 'the delivery recorded as delivered' },
      ).then((delivery) => {
        expect(delivery).toMatchObject({ attempts: 3, responseCode: 200, responseCodes: [500, 500, 200] });
      });
    } finally {
      await flaky.stop();
    }
  });

  it('sends only mail to the address a webhook names, and nothing while disabled', async () => {
    const one = await createAddress(server, world, 'only-one');
    const other = await createAddress(server, world, 'only-other');
    const hook = await addWebhook('/only', { address: one.address });
    const disabled = await addWebhook('/disabled');
    const off = await server.api('POST', 'user/editWebhook', {
      token: world.userToken,
      body: { id: disabled.id, enabled: false },
    });
    expectOk(off.body);
    expect(off.body.data.enabled).toBe(false);
    await sendMail(server.smtpPort, {
      to: [other.address],
      content: simpleMessage(other.address, 'not for it', 'x'),
    });
    await sendMail(server.smtpPort, {
      to: [one.address],
      content: simpleMessage(one.address, 'for it', 'x'),
    });
    await waitFor(() => postsTo('/only').length === 1, { what: 'the POST for the named address' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(postsTo('/only').map((post) => JSON.parse(post.body).subject)).toEqual(['for it']);
    expect(postsTo('/disabled')).toHaveLength(0);
    const log = await server.api('GET', `user/getWebhookDeliveries?id=${hook.id}`, {
      token: world.userToken,
    });
    expectOk(log.body);
    expect(log.body.data.total).toBe(1);
  });

  it('testWebhook sends a signed test event and reports status and duration', async () => {
    const hook = await addWebhook('/test-button');
    const { body } = await server.api('POST', 'user/testWebhook', {
      token: world.userToken,
      body: { id: hook.id },
    });
    expectOk(body);
    expect(body.data).toMatchObject({ status: 'delivered', responseCode: 200, error: null });
    expect(body.data.durationMs).toBeGreaterThanOrEqual(0);
    const [post] = postsTo('/test-button');
    expect(post?.headers['x-youju-event']).toBe('webhook.test');
    expect(post && verifySignature(hook.secret, post.headers, post.body)).toBe(true);

    receiver.setFallback(503);
    try {
      const failed = await server.api('POST', 'user/testWebhook', {
        token: world.userToken,
        body: { id: hook.id },
      });
      expectOk(failed.body);
      expect(failed.body.data).toMatchObject({ status: 'failed', responseCode: 503, error: 'HTTP 503' });
    } finally {
      receiver.setFallback(200);
    }
    const log = await server.api('GET', `user/getWebhookDeliveries?id=${hook.id}`, {
      token: world.userToken,
    });
    expectOk(log.body);
    expect(log.body.data.list.map((item) => item.status)).toEqual(['failed', 'delivered']);
  });

  it('counts settled deliveries in youju_webhook_deliveries_total', async () => {
    const response = await fetch(`${server.baseUrl}/metrics`);
    const text = await response.text();
    const delivered = /youju_webhook_deliveries_total\{result="delivered"\} (\d+)/.exec(text);
    expect(Number(delivered?.[1])).toBeGreaterThanOrEqual(3);
  });
});

describe('the queue shared by processes', () => {
  it('gives each due delivery to one claimant when several claim at once', async () => {
    const hook = await addWebhook('/never-due');
    const { db } = server.app.database;
    // Due only in an hour, so this server's own worker leaves them alone; the claims look from then.
    const later = Date.now() + 3_600_000;
    for (let index = 0; index < 20; index++) {
      await insertWebhookDelivery(db, {
        webhook_id: hook.id,
        event: 'mail.received',
        message_id: null,
        delivery_key: `claim-test-${hook.id}-${index}`,
        status: 'pending',
        attempts: 0,
        next_attempt_at: later,
        lease_owner: null,
        lease_until: null,
        response_code: null,
        last_error: null,
        duration_ms: null,
        created_at: later,
        updated_at: later,
        delivered_at: null,
      });
    }
    const due = await listDueWebhookDeliveries(db, later, 1000);
    const claimants = ['process-a', 'process-b', 'process-c', 'process-d'];
    await Promise.all(
      claimants.map((owner) =>
        leaseDueWebhookDeliveries(db, due, { owner, until: later + 60_000, now: later }),
      ),
    );
    const held = await Promise.all(claimants.map((owner) => listLeasedWebhookDeliveries(db, due, owner)));
    const ids = held.flat().map((row) => row.id);
    expect(ids.length).toBe(due.length);
    expect(new Set(ids).size).toBe(due.length);
    // every claimed row counts exactly one attempt
    expect(held.flat().every((row) => row.attempts === 1)).toBe(true);
    // and a claimed row is not due again until its lease runs out
    expect(await listDueWebhookDeliveries(db, later + 1, 1000)).not.toEqual(expect.arrayContaining(due));
    expect((await listDueWebhookDeliveries(db, later + 60_001, 1000)).length).toBeGreaterThanOrEqual(
      due.length,
    );
    const removed = await server.api('POST', 'user/delWebhook', {
      token: world.userToken,
      body: { id: hook.id },
    });
    expectOk(removed.body);
  });
});

describe('Telegram', () => {
  it('sends a test message when set, then new mail with sender, subject, code and link', async () => {
    const telegram = await startReceiver();
    const tgServer = await startTestServer({
      env: { TELEGRAM_API_URL: telegram.url, WEBHOOK_POLL_MS: '100', PUBLIC_URL: 'https://mail.youju.test' },
    });
    try {
      const tgWorld = await createUserWithDomain(tgServer, 'tg');
      const { address } = await createAddress(tgServer, tgWorld, 'bot');
      const token = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0';
      const set = await tgServer.api('POST', 'user/setTelegram', {
        token: tgWorld.userToken,
        body: { botToken: token, chatId: '-100123456', enabled: true },
      });
      expectOk(set.body);
      expect(telegram.received).toHaveLength(1);
      expect(telegram.received[0]?.path).toBe(`/bot${token}/sendMessage`);
      expect(JSON.parse(telegram.received[0]?.body ?? '{}')).toMatchObject({ chat_id: '-100123456' });

      const shown = await tgServer.api('GET', 'user/getTelegram', { token: tgWorld.userToken });
      expectOk(shown.body);
      expect(shown.body.data).toEqual({
        chatId: '-100123456',
        enabled: true,
        botTokenSet: true,
        lastStatus: null,
      });
      expect(JSON.stringify(shown.body)).not.toContain('AAHdqTcv');

      await sendMail(tgServer.smtpPort, {
        to: [address],
        content: simpleMessage(address, 'GitHub 登录', 'Your verification code is 739184.'),
      });
      await waitFor(() => telegram.received.length === 2, { what: 'the Telegram message' });
      await waitFor(
        async () => {
          const state = await tgServer.api('GET', 'user/getTelegram', { token: tgWorld.userToken });
          expectOk(state.body);
          return state.body.data.lastStatus?.status === 'delivered';
        },
        { what: 'the Telegram notification recorded as delivered' },
      );
      const message = JSON.parse(telegram.received[1]?.body ?? '{}') as { chat_id: string; text: string };
      expect(message.chat_id).toBe('-100123456');
      expect(message.text).toContain('Tester <tester@sender.example>');
      expect(message.text).toContain('GitHub 登录');
      expect(message.text).toContain('739184');
      expect(message.text).toMatch(/https:\/\/mail\.youju\.test\/user\/inbox\?id=\d+/);

      // A token Telegram refuses is told at once, with Telegram's reason, and not saved.
      telegram.setFallback({
        status: 401,
        body: '{"ok":false,"error_code":401,"description":"Unauthorized"}',
      });
      const refused = await tgServer.api('POST', 'user/setTelegram', {
        token: tgWorld.userToken,
        body: { botToken: '987654321:BBHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0', chatId: '42', enabled: true },
      });
      expect(refused.body.error).toBe(400);
      expect(refused.body.msg).toContain('Unauthorized');
      expect(refused.body.msg).not.toContain('BBHdqTcv');
      const still = await tgServer.api('GET', 'user/getTelegram', { token: tgWorld.userToken });
      expectOk(still.body);
      expect(still.body.data.chatId).toBe('-100123456');

      // Bad input: a malformed token or chat id is a 400 naming the field.
      const bad = await tgServer.api('POST', 'user/setTelegram', {
        token: tgWorld.userToken,
        body: { botToken: 'not a token', chatId: '42', enabled: true },
      });
      expect(bad.body.error).toBe(400);
      expect(bad.body.msg).toContain('机器人令牌');

      // Disabled: kept, no test message, no more notifications.
      const before = telegram.received.length;
      const off = await tgServer.api('POST', 'user/setTelegram', {
        token: tgWorld.userToken,
        body: { chatId: '-100123456', enabled: false },
      });
      expectOk(off.body);
      expect(telegram.received.length).toBe(before);
    } finally {
      await stopAll(tgServer, telegram);
    }
  });
});
