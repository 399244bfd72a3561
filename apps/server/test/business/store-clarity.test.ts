import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk } from '../support/api.js';
import { addDomain, createUser } from '../support/fixtures.js';
import { startTestServer, stopAll, type TestServer } from '../support/test-server.js';
import { waitFor } from '../support/wait-for.js';
import { type Receiver, startReceiver, verifySignature } from '../webhooks/webhook-helpers.js';

/*
 * Store clarity (a sale needs a real price; free and for sale only when confirmed) and the new-order
 * notice to the domain's owner: the live stream (SSE `order`), `order.created` webhooks and
 * Telegram. Real server, real HTTP receivers on loopback standing in for the owner's webhook
 * endpoint and for the Telegram Bot API (unreachable here).
 */

let server: TestServer;
let receiver: Receiver;
let telegram: Receiver;
let admin: string;
let alice: { id: number; token: string };
let bob: { id: number; token: string };
let aliceDomain: { id: number; name: string };
let bobDomain: { id: number; name: string };

beforeAll(async () => {
  receiver = await startReceiver();
  telegram = await startReceiver();
  server = await startTestServer({
    env: {
      WEBHOOK_ALLOW_PRIVATE: '1',
      WEBHOOK_POLL_MS: '100',
      TELEGRAM_API_URL: telegram.url,
      PUBLIC_URL: 'https://mail.youju.test',
    },
  });
  admin = await server.adminToken();
  alice = await createUser(server, 'shop-alice');
  bob = await createUser(server, 'shop-bob');
  aliceDomain = await addDomain(server, alice.token, 'alice-shop.youju.test', { forSale: true, price: 1234 });
  bobDomain = await addDomain(server, bob.token, 'bob-shop.youju.test', { forSale: true, price: 500 });
});
afterAll(() => stopAll(server, receiver, telegram));

const add = (token: string, body: Record<string, unknown>) =>
  server.api('POST', 'user/addDomain', { token, body });
const edit = (token: string, body: Record<string, unknown>) =>
  server.api('POST', 'user/editDomain', { token, body });

describe('a domain for sale has a real price', () => {
  it('refuses forSale without a price, with price 0, negative, fractional, huge or text, on add', async () => {
    for (const price of [undefined, 0, -1, -990, 9.5, 0.01, 100_000_001, 1e18, '100', null]) {
      const body: Record<string, unknown> = {
        name: `p${String(price).replace(/\W/g, '')}.youju.test`,
        forSale: true,
      };
      if (price !== undefined) body.price = price;
      const reply = await add(admin, body);
      expect(reply.status, `price ${String(price)}`).toBe(400);
      expect(reply.body.error).toBe(400);
      expect(reply.body.msg).toContain('价格');
    }
    const names = await server.app.database.db.selectFrom('domains').select('name').execute();
    expect(names.map((row) => row.name).filter((name) => name.startsWith('p'))).toEqual([]);
  });

  it('refuses to put a domain on sale at ¥0 by edit, or to drop the price of one for sale to 0', async () => {
    const free = await addDomain(server, alice.token, 'later.youju.test');
    const noPrice = await edit(alice.token, { id: free.id, forSale: true });
    expect(noPrice.status).toBe(400);
    expect(noPrice.body.msg).toContain('价格');
    const zero = await edit(alice.token, { id: aliceDomain.id, price: 0 });
    expect(zero.status).toBe(400);
    const negative = await edit(alice.token, { id: aliceDomain.id, price: -5 });
    expect(negative.status).toBe(400);
    const fraction = await edit(alice.token, { id: aliceDomain.id, price: 12.5 });
    expect(fraction.status).toBe(400);
    // unchanged
    const list = await server.api('GET', 'user/getDomains', { token: alice.token });
    expect(list.body.data?.find((domain) => domain.id === aliceDomain.id)).toMatchObject({
      forSale: true,
      price: 1234,
    });
    // taking it off sale and setting a price later is fine
    expectOk((await edit(alice.token, { id: free.id, forSale: false, price: 0 })).body);
    expectOk((await edit(alice.token, { id: free.id, forSale: true, price: 300 })).body);
  });

  it('never lists a ¥0 domain left over from before the rule', async () => {
    const legacy = await addDomain(server, admin, 'legacy.youju.test', { forSale: true, price: 100 });
    // a row as an older version stored it (migration 058 takes these off sale on upgrade)
    await server.app.database.db
      .updateTable('domains')
      .set({ price: 0 })
      .where('id', '=', legacy.id)
      .execute();
    const store = await server.api('GET', 'getAdminDomains');
    expectOk(store.body);
    expect(store.body.data?.map((domain) => domain.id)).not.toContain(legacy.id);
    const buy = await server.api('POST', 'buyEmail', {
      body: {
        domainId: legacy.id,
        localPart: 'zero',
        password: 'buyer-pass-1',
        phone: '13900000001',
        payMethod: 'manual',
      },
    });
    expect(buy.body.error).not.toBe(0);
  });
});

describe('free to register and for sale at once', () => {
  it('is refused unless confirmed, on add and on edit, and the store says so', async () => {
    const refused = await add(admin, {
      name: 'both.youju.test',
      publicRegistration: true,
      forSale: true,
      price: 100,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toContain('免费注册');
    const confirmed = await add(admin, {
      name: 'both.youju.test',
      publicRegistration: true,
      forSale: true,
      price: 100,
      confirmFreeAndSale: true,
    });
    expectOk(confirmed.body);
    const id = confirmed.body.data?.id;
    // a later edit of the price alone keeps the confirmed combination
    expectOk((await edit(admin, { id, price: 200 })).body);
    // turning one switch on again asks again
    const open = await addDomain(server, admin, 'open.youju.test', { publicRegistration: true });
    const sell = await edit(admin, { id: open.id, forSale: true, price: 100 });
    expect(sell.status).toBe(400);
    expect(sell.body.msg).toContain('免费注册');
    const store = await server.api('GET', 'getAdminDomains');
    expect(store.body.data?.find((domain) => domain.id === id)).toMatchObject({
      price: 200,
      freeRegistration: true,
    });
    expect(store.body.data?.find((domain) => domain.id === aliceDomain.id)?.freeRegistration).toBeUndefined();
  });

  it("lets nobody else change a domain's sale settings", async () => {
    for (const body of [
      { id: aliceDomain.id, price: 1 },
      { id: aliceDomain.id, forSale: false },
      { id: aliceDomain.id, publicRegistration: true, confirmFreeAndSale: true },
    ]) {
      const reply = await edit(bob.token, body);
      expect(reply.status).toBe(404);
    }
    const row = await server.app.database.db
      .selectFrom('domains')
      .select(['price', 'for_sale', 'public_registration'])
      .where('id', '=', aliceDomain.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ price: 1234, for_sale: 1, public_registration: 0 });
  });
});

/** An open live stream (GET /api/user/events) collecting every event it is sent. */
async function openStream(token: string) {
  const controller = new AbortController();
  const response = await fetch(`${server.baseUrl}/api/user/events?token=${token}`, {
    signal: controller.signal,
  });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const stream = { text: '', closed: false };
  void (async () => {
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        stream.text += decoder.decode(chunk.value, { stream: true });
      }
    } catch {
      // aborted
    }
    stream.closed = true;
  })();
  await waitFor(() => stream.text.includes(': connected'), { what: 'the stream to open' });
  return {
    orders: () =>
      [...stream.text.matchAll(/event: order\ndata: (.*)\n\n/g)].map(
        (match) => JSON.parse(match[1] ?? '{}') as Record<string, unknown>,
      ),
    text: () => stream.text,
    close: () => controller.abort(),
  };
}

describe('a new order is told to its domain owner, and to nobody else', () => {
  it('reaches the owner by SSE, webhook and Telegram; not bob, not the administrator', async () => {
    const aliceHook = await server.api('POST', 'user/addWebhook', {
      token: alice.token,
      body: { url: `${receiver.url}/alice-orders`, events: ['order.created'] },
    });
    expectOk(aliceHook.body);
    const aliceMailOnly = await server.api('POST', 'user/addWebhook', {
      token: alice.token,
      body: { url: `${receiver.url}/alice-mail` },
    });
    expectOk(aliceMailOnly.body);
    const bobHook = await server.api('POST', 'user/addWebhook', {
      token: bob.token,
      body: { url: `${receiver.url}/bob-orders`, events: ['order.created', 'mail.received'] },
    });
    expectOk(bobHook.body);
    const botToken = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0';
    expectOk(
      (
        await server.api('POST', 'user/setTelegram', {
          token: alice.token,
          body: { botToken, chatId: '42', enabled: true },
        })
      ).body,
    );
    const telegramBefore = telegram.received.length;

    const aliceStream = await openStream(alice.token);
    const bobStream = await openStream(bob.token);
    const adminStream = await openStream(admin);
    try {
      const password = 'Buyer-Secret-9';
      const buy = await server.api('POST', 'buyEmail', {
        body: {
          domainId: aliceDomain.id,
          localPart: 'newbuyer',
          password,
          phone: '13812345678',
          payMethod: 'manual',
        },
      });
      expectOk(buy.body);
      const orderNo = buy.body.data?.orderNo;

      await waitFor(() => aliceStream.orders().length === 1, { what: "the order on alice's stream" });
      const notice = aliceStream.orders()[0];
      expect(notice).toMatchObject({
        event: 'order.created',
        orderNo,
        domainId: aliceDomain.id,
        address: 'newbuyer@alice-shop.youju.test',
        amount: 1234,
        payMethod: 'manual',
        phone: '138****5678',
        status: 'pending',
      });

      await waitFor(() => receiver.received.some((request) => request.path === '/alice-orders'), {
        what: "alice's order.created webhook",
      });
      const delivery = receiver.received.find((request) => request.path === '/alice-orders');
      expect(delivery?.headers['x-youju-event']).toBe('order.created');
      expect(
        verifySignature(aliceHook.body.data?.secret ?? '', delivery?.headers ?? {}, delivery?.body ?? ''),
      ).toBe(true);
      expect(JSON.parse(delivery?.body ?? '{}')).toEqual(notice);

      await waitFor(() => telegram.received.length > telegramBefore, { what: "alice's Telegram message" });
      const message = JSON.parse(telegram.received.at(-1)?.body ?? '{}') as { chat_id: string; text: string };
      expect(message.chat_id).toBe('42');
      expect(message.text).toContain(orderNo ?? '-');
      expect(message.text).toContain('¥12.34');
      expect(message.text).toContain('138****5678');

      // Nothing secret anywhere: no password, no hash, no full phone.
      for (const text of [JSON.stringify(notice), delivery?.body ?? '', message.text, aliceStream.text()]) {
        expect(text).not.toContain(password);
        expect(text).not.toContain('13812345678');
        expect(text).not.toMatch(/scrypt|argon|\$2[aby]\$/i);
      }

      // bob's stream, bob's webhook, the administrator's stream and alice's mail-only webhook: nothing.
      // (A later order of bob's is seen by bob: the streams work, they were just not told.)
      const bobBuy = await server.api('POST', 'buyEmail', {
        body: {
          domainId: bobDomain.id,
          localPart: 'bobbuyer',
          password,
          phone: '13912345678',
          payMethod: 'manual',
        },
      });
      expectOk(bobBuy.body);
      await waitFor(() => bobStream.orders().length === 1, { what: "bob's own order on bob's stream" });
      expect(bobStream.orders()[0]?.orderNo).toBe(bobBuy.body.data?.orderNo);
      await waitFor(() => receiver.received.some((request) => request.path === '/bob-orders'), {
        what: "bob's own webhook",
      });
      expect(receiver.received.filter((request) => request.path === '/bob-orders')).toHaveLength(1);
      expect(JSON.parse(receiver.received.find((r) => r.path === '/bob-orders')?.body ?? '{}').orderNo).toBe(
        bobBuy.body.data?.orderNo,
      );
      expect(aliceStream.orders()).toHaveLength(1);
      expect(adminStream.orders()).toHaveLength(0);
      expect(receiver.received.filter((request) => request.path === '/alice-mail')).toHaveLength(0);
      expect(receiver.received.filter((request) => request.path === '/alice-orders')).toHaveLength(1);
      // alice's Telegram heard only alice's order
      expect(
        telegram.received.slice(telegramBefore).every((request) => !request.body.includes('bobbuyer')),
      ).toBe(true);

      // the delivery log lists the event like mail deliveries
      const log = await server.api('GET', `user/getWebhookDeliveries?id=${aliceHook.body.data?.id}`, {
        token: alice.token,
      });
      expectOk(log.body);
      expect(log.body.data?.list[0]).toMatchObject({ event: 'order.created' });
    } finally {
      aliceStream.close();
      bobStream.close();
      adminStream.close();
    }
  });
});

describe('getGuide: the first-run checklist from real state', () => {
  it('starts empty for a new account and ticks each step as it becomes true', async () => {
    const fresh = await createUser(server, 'guide-user');
    const empty = await server.api('GET', 'user/getGuide', { token: fresh.token });
    expectOk(empty.body);
    expect(empty.body.data).toEqual({
      domains: 0,
      dnsReady: false,
      testMailSent: false,
      mailReceived: false,
      firstDomain: null,
    });
    const domain = await addDomain(server, fresh.token, 'guide.youju.test', { publicRegistration: true });
    const one = await server.api('GET', 'user/getGuide', { token: fresh.token });
    expect(one.body.data).toMatchObject({
      domains: 1,
      dnsReady: false,
      firstDomain: { id: domain.id, name: 'guide.youju.test' },
    });
    await server.app.database.db
      .updateTable('domains')
      .set({ dns_status: 'ok' })
      .where('id', '=', domain.id)
      .execute();
    const address = await server.api('POST', 'user/createEmail', {
      token: fresh.token,
      body: { domainId: domain.id, localPart: 'inbox' },
    });
    expectOk(address.body);
    const sent = await server.api('POST', 'user/sendEmail', {
      token: fresh.token,
      body: {
        from: 'test@guide.youju.test',
        to: ['inbox@guide.youju.test'],
        subject: '测试邮件',
        text: 'hello',
      },
    });
    expectOk(sent.body);
    await waitFor(
      async () => {
        const state = await server.api('GET', 'user/getGuide', { token: fresh.token });
        return state.body.data?.mailReceived === true;
      },
      { what: 'the test mail to arrive' },
    );
    const done = await server.api('GET', 'user/getGuide', { token: fresh.token });
    expect(done.body.data).toMatchObject({
      domains: 1,
      dnsReady: true,
      testMailSent: true,
      mailReceived: true,
    });
    // another user's state is its own
    const other = await server.api('GET', 'user/getGuide', { token: bob.token });
    expect(other.body.data).toMatchObject({ testMailSent: false, mailReceived: false });
  });

  it('is for system accounts only', async () => {
    expect((await server.api('GET', 'user/getGuide')).body.error).toBe(302);
  });
});
