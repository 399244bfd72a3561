import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epaySign } from '../../src/modules/payments/epay.js';
import { expectDefined, expectOk, getRaw } from '../support/api.js';
import type { TestServer } from '../support/test-server.js';
import {
  countMailboxes,
  loginMailbox,
  mailboxSession,
  type Owner,
  ownerWithDomain,
  startShop,
} from './helpers.js';

/*
 * The EPay gateway cannot run here. These tests play the gateway: they sign notices with the key
 * configured in the payment settings, exactly as a gateway would, and send them to the notify
 * address over real HTTP. That is the only stand-in; everything else is the real server.
 */

const EPAY_KEY = 'test-merchant-key-7d1f';
const EPAY_PID = '1001';

let server: TestServer;
let admin: string;
let alice: Owner;
let bob: Owner;

beforeAll(async () => {
  ({ server, admin, alice, bob } = await startShop({ alice: 990, bob: 500 }));
});
afterAll(async () => server.close());

let phoneCounter = 13800000000;
function newPhone(): string {
  phoneCounter += 1;
  return String(phoneCounter);
}

function buy(body: Record<string, unknown>) {
  return server.api('POST', 'buyEmail', { body });
}

/** What an EPay gateway posts to notify_url for a paid order, signed with `key`. */
function gatewayNotice(
  orderNo: string,
  money: string,
  overrides: Record<string, string> = {},
  key = EPAY_KEY,
) {
  const params: Record<string, string> = {
    pid: EPAY_PID,
    trade_no: `T${orderNo}`,
    out_trade_no: orderNo,
    type: 'alipay',
    name: '邮箱',
    money,
    trade_status: 'TRADE_SUCCESS',
    ...overrides,
  };
  return { ...params, sign: epaySign(params, key), sign_type: 'MD5' };
}

async function postNotice(params: Record<string, string>): Promise<{ status: number; text: string }> {
  const { status, body } = await server.api('POST', 'pay/notify/epay', {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  });
  return { status, text: body };
}

async function orderStatus(orderNo: string): Promise<string | undefined> {
  const row = await server.app.database.db
    .selectFrom('orders')
    .select('status')
    .where('order_no', '=', orderNo)
    .executeTakeFirst();
  return row?.status;
}

describe('store and orders (manual payment)', () => {
  it('lists pay methods and checks addresses as people type', async () => {
    const methods = await server.api('GET', 'getPayMethods');
    expect(methods.body.data).toEqual([{ id: 'manual', name: '人工确认付款' }]);
    const free = await server.api('GET', `checkAddress?domainId=${alice.domain.id}&localPart=Fresh`);
    expect(free.body.data).toEqual({ address: 'fresh@alice.youju.test', available: true });
    const bad = await server.api('GET', `checkAddress?domainId=${alice.domain.id}&localPart=-bad-`);
    expect(bad.body.data?.available).toBe(false);
    expect(bad.body.data?.reason).toMatch(/前缀/);
  });

  it('orders, reserves the address, confirms once under concurrency, delivers a mailbox the buyer logs in to', async () => {
    const phone = newPhone();
    const ordered = await buy({
      domainId: alice.domain.id,
      localPart: 'Bought',
      password: 'bought-pass-1',
      phone,
      payMethod: 'manual',
    });
    expectOk(ordered.body);
    expect(ordered.body.data).toMatchObject({
      amount: 990,
      status: 'pending',
      address: 'bought@alice.youju.test',
    });
    expect(ordered.body.data.payUrl).toBeUndefined();
    expect(ordered.body.data.instructions).toMatch(/付款/);
    const { orderNo } = ordered.body.data;
    expect(orderNo).toMatch(/^\d{26}$/);

    // Reserved: neither another order nor anything else can take the name meanwhile.
    const taken = await server.api('GET', `checkAddress?domainId=${alice.domain.id}&localPart=bought`);
    expect(taken.body.data).toMatchObject({ available: false });
    expect(taken.body.data?.reason).toMatch(/预留/);
    const second = await buy({
      domainId: alice.domain.id,
      localPart: 'bought',
      password: 'other-pass-1',
      phone: newPhone(),
      payMethod: 'manual',
    });
    expect(second.status).toBe(409);
    const account = await server.api('POST', 'user/createEmailAccount', {
      token: alice.token,
      body: { domainId: alice.domain.id, localPart: 'bought', password: 'other-pass-1' },
    });
    expect(account.status).toBe(409);
    const address = await server.api('POST', 'user/createEmail', {
      token: alice.token,
      body: { domainId: alice.domain.id, localPart: 'bought' },
    });
    expect(address.status).toBe(409);
    expect(address.body.msg).toMatch(/预留/);
    const registered = await server.api('POST', 'regEmail', {
      body: { domainId: alice.domain.id, localPart: 'bought', password: 'other-pass-1' },
    });
    expect(registered.status).toBe(409);
    expect(registered.body.msg).toMatch(/预留/);

    const lookup = await server.api('GET', `queryOrder?phone=${phone}`);
    expect(lookup.body.data).toHaveLength(1);
    expect(lookup.body.data?.[0]).toMatchObject({ orderNo, status: 'pending', address: null, amount: 990 });
    expect(JSON.stringify(lookup.body)).not.toMatch(/password|scrypt/i);

    // Owner and administrator confirm at the same moment, twice each.
    const confirmations = await Promise.all([
      server.api('POST', 'user/confirmOrder', { token: alice.token, body: { orderNo } }),
      server.api('POST', 'user/confirmOrder', { token: admin, body: { orderNo } }),
      server.api('POST', 'user/confirmOrder', { token: alice.token, body: { orderNo } }),
      server.api('POST', 'user/confirmOrder', { token: admin, body: { orderNo } }),
    ]);
    for (const answer of confirmations) {
      expectOk(answer.body);
      expect(answer.body.data.status).toBe('delivered');
    }
    expect(await countMailboxes(server, 'bought@alice.youju.test')).toBe(1);
    const delivered = await server.api('GET', `queryOrder?phone=${phone}`);
    expect(delivered.body.data?.[0]).toMatchObject({
      status: 'delivered',
      address: 'bought@alice.youju.test',
    });
    expect(delivered.body.data?.[0]?.paidAt).not.toBeNull();
    expect((await loginMailbox(server, 'bought@alice.youju.test', 'bought-pass-1')).body.error).toBe(0);

    const cancelPaid = await server.api('POST', 'user/cancelOrder', {
      token: alice.token,
      body: { orderNo },
    });
    expect(cancelPaid.status).toBe(409);
    expect(cancelPaid.body.msg).toMatch(/已付款/);
  });

  it('keeps orders to the domain owner (administrators see all); mailbox sessions are refused', async () => {
    const phone = newPhone();
    const ordered = await buy({
      domainId: alice.domain.id,
      localPart: 'secret-order',
      password: 'secret-pass',
      phone,
      payMethod: 'manual',
    });
    expectOk(ordered.body);
    const { orderNo } = ordered.body.data;
    const bobList = await server.api('GET', `user/getOrders?phone=${phone}`, { token: bob.token });
    expect(bobList.body.data?.total).toBe(0);
    for (const path of ['user/confirmOrder', 'user/cancelOrder']) {
      const attempt = await server.api('POST', path, { token: bob.token, body: { orderNo } });
      expect(attempt.status, path).toBe(404);
    }
    expect(await orderStatus(orderNo)).toBe('pending');
    const aliceList = await server.api('GET', `user/getOrders?phone=${phone}`, { token: alice.token });
    expect(aliceList.body.data?.list[0]).toMatchObject({
      orderNo,
      address: 'secret-order@alice.youju.test',
      phone,
      amount: 990,
      payMethod: 'manual',
      status: 'pending',
    });
    expect(JSON.stringify(aliceList.body)).not.toMatch(/password|scrypt/i);
    const adminList = await server.api('GET', 'user/getOrders?status=pending', { token: admin });
    expect(adminList.body.data?.list.map((o: { orderNo: string }) => o.orderNo)).toContain(orderNo);

    const cancelled = await server.api('POST', 'user/cancelOrder', { token: alice.token, body: { orderNo } });
    expect(cancelled.body.data?.status).toBe('cancelled');
    const confirmCancelled = await server.api('POST', 'user/confirmOrder', {
      token: alice.token,
      body: { orderNo },
    });
    expect(confirmCancelled.status).toBe(409);
    // Cancelling frees the name.
    const free = await server.api('GET', `checkAddress?domainId=${alice.domain.id}&localPart=secret-order`);
    expect(free.body.data?.available).toBe(true);

    await server.api('POST', 'user/createEmailAccount', {
      token: alice.token,
      body: { domainId: alice.domain.id, localPart: 'orderless', password: 'orderless-1' },
    });
    const session = await mailboxSession(server, 'orderless@alice.youju.test', 'orderless-1');
    for (const [method, path] of [
      ['GET', 'user/getOrders'],
      ['POST', 'user/confirmOrder'],
      ['POST', 'user/cancelOrder'],
      ['GET', 'user/getPaySettings'],
    ] as const) {
      const attempt = await server.api(method, path, {
        token: session,
        body: method === 'POST' ? { orderNo } : undefined,
      });
      expect(attempt.status, path).toBe(403);
    }
    expect((await server.api('GET', 'user/getPaySettings', { token: alice.token })).status).toBe(403);
  });

  it('expires unpaid orders after their time and frees the address; refuses what is not for sale', async () => {
    const ordered = await buy({
      domainId: bob.domain.id,
      localPart: 'slowpoke',
      password: 'slow-pass-1',
      phone: newPhone(),
      payMethod: 'manual',
    });
    expectOk(ordered.body);
    const { orderNo } = ordered.body.data;
    await server.app.database.db
      .updateTable('orders')
      .set({ expires_at: Date.now() - 1000 })
      .where('order_no', '=', orderNo)
      .execute();
    const list = await server.api('GET', 'user/getOrders', { token: bob.token });
    expect(list.body.data?.list.find((o: { orderNo: string }) => o.orderNo === orderNo)?.status).toBe(
      'expired',
    );
    const again = await buy({
      domainId: bob.domain.id,
      localPart: 'slowpoke',
      password: 'fast-pass-1',
      phone: newPhone(),
      payMethod: 'manual',
    });
    expectOk(again.body);

    // The owner's mailbox limit is the stock: accounts plus unpaid orders.
    const small = await ownerWithDomain(server, 'smallshop', 'smallshop.youju.test', { maxMailboxes: 1 });
    const stockOf = async (id: number) =>
      (await server.api('GET', 'getAdminDomains')).body.data?.find((domain) => domain.id === id)?.stock;
    expect(await stockOf(small.domain.id)).toBe(1);
    expect(await stockOf(bob.domain.id)).toBeNull();
    const only = await buy({
      domainId: small.domain.id,
      localPart: 'only-one',
      password: 'only-pass-1',
      phone: newPhone(),
      payMethod: 'manual',
    });
    expectOk(only.body);
    const soldOut = await buy({
      domainId: small.domain.id,
      localPart: 'one-more',
      password: 'more-pass-1',
      phone: newPhone(),
      payMethod: 'manual',
    });
    expect(soldOut.status).toBe(409);
    expect(soldOut.body.msg).toMatch(/售完/);
    expect(await stockOf(small.domain.id)).toBe(0);

    const notForSale = await ownerWithDomain(server, 'nosale', 'nosale.youju.test', { forSale: false });
    const refused = await buy({
      domainId: notForSale.domain.id,
      localPart: 'x',
      password: 'x-pass-12',
      phone: newPhone(),
      payMethod: 'manual',
    });
    expect(refused.status).toBe(404);
    const badMethod = await buy({
      domainId: bob.domain.id,
      localPart: 'y',
      password: 'y-pass-12',
      phone: newPhone(),
      payMethod: 'epay:alipay',
    });
    expect(badMethod.status).toBe(400);
    expect(badMethod.body.msg).toMatch(/支付方式/);
    const badPhone = await buy({
      domainId: bob.domain.id,
      localPart: 'y',
      password: 'y-pass-12',
      phone: '电话',
      payMethod: 'manual',
    });
    expect(badPhone.status).toBe(400);
    expect(badPhone.body.msg).toContain('手机号');
  });
});

describe('EPay gateway', () => {
  let orderNo = '';
  const phone = newPhone();

  it('keeps the merchant key write-only and offers the configured pay types', async () => {
    const incomplete = await server.api('POST', 'user/updatePaySettings', {
      token: admin,
      body: { epayEnabled: true },
    });
    expect(incomplete.status).toBe(400);
    const saved = await server.api('POST', 'user/updatePaySettings', {
      token: admin,
      body: {
        epayEnabled: true,
        epayGatewayUrl: 'https://pay.example.com/submit.php',
        epayMerchantId: EPAY_PID,
        epayKey: EPAY_KEY,
        epayTypes: ['alipay', 'wxpay'],
        siteUrl: 'https://mail.youju.test/',
      },
    });
    expectOk(saved.body);
    expect(saved.body.data).toMatchObject({ epayKeySet: true, siteUrl: 'https://mail.youju.test' });
    const read = await server.api('GET', 'user/getPaySettings', { token: admin });
    expect(JSON.stringify(read.body)).not.toContain(EPAY_KEY);
    // Saving without a key keeps the stored one.
    await server.api('POST', 'user/updatePaySettings', {
      token: admin,
      body: { epayKey: '', orderTimeoutMinutes: 30 },
    });
    expect((await server.api('GET', 'user/getPaySettings', { token: admin })).body.data?.epayKeySet).toBe(
      true,
    );
    const methods = await server.api('GET', 'getPayMethods');
    expect(methods.body.data?.map((m: { id: string }) => m.id)).toEqual([
      'manual',
      'epay:alipay',
      'epay:wxpay',
    ]);
  });

  it('returns a signed redirect to the gateway', async () => {
    const ordered = await buy({
      domainId: alice.domain.id,
      localPart: 'paid-online',
      password: 'online-pass-1',
      phone,
      payMethod: 'epay:alipay',
    });
    expectOk(ordered.body);
    orderNo = ordered.body.data.orderNo;
    const url = new URL(expectDefined(ordered.body.data.payUrl, 'the payment address'));
    expect(`${url.origin}${url.pathname}`).toBe('https://pay.example.com/submit.php');
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({
      pid: EPAY_PID,
      type: 'alipay',
      out_trade_no: orderNo,
      money: '9.90',
      notify_url: 'https://mail.youju.test/api/pay/notify/epay',
      sign_type: 'MD5',
    });
    expect(params.return_url).toMatch(/^https:\/\/mail\.youju\.test\/store\?orderNo=/);
    expect(params.sign).toBe(epaySign(params, EPAY_KEY));
  });

  it('refuses forged and altered notices without changing anything', async () => {
    const forged = await postNotice(gatewayNotice(orderNo, '9.90', {}, 'wrong-key'));
    expect(forged).toEqual({ status: 400, text: 'fail' });
    const tampered = { ...gatewayNotice(orderNo, '9.90'), money: '0.01' };
    expect((await postNotice(tampered)).text).toBe('fail');
    const cheap = await postNotice(gatewayNotice(orderNo, '0.01'));
    expect(cheap.text).toBe('fail');
    const unpaid = await postNotice(gatewayNotice(orderNo, '9.90', { trade_status: 'WAIT_BUYER_PAY' }));
    expect(unpaid.text).toBe('fail');
    const otherMerchant = await postNotice(gatewayNotice(orderNo, '9.90', { pid: '9999' }));
    expect(otherMerchant.text).toBe('fail');
    const unsigned = gatewayNotice(orderNo, '9.90') as Record<string, string>;
    delete unsigned.sign;
    expect((await postNotice(unsigned)).text).toBe('fail');
    const unknownProvider = await getRaw(
      server,
      `pay/notify/nopay?${new URLSearchParams(gatewayNotice(orderNo, '9.90'))}`,
    );
    expect(unknownProvider.bytes.toString()).toBe('fail');
    expect(await orderStatus(orderNo)).toBe('pending');
    expect(await countMailboxes(server, 'paid-online@alice.youju.test')).toBe(0);
  });

  it('a genuine notice delivers the mailbox once, however often and however concurrently it is replayed', async () => {
    const notice = gatewayNotice(orderNo, '9.90');
    const answers = await Promise.all(Array.from({ length: 10 }, () => postNotice(notice)));
    for (const answer of answers) expect(answer).toEqual({ status: 200, text: 'success' });
    // Some gateways call with GET.
    const viaGet = await getRaw(server, `pay/notify/epay?${new URLSearchParams(notice)}`);
    expect(viaGet.bytes.toString()).toBe('success');
    expect(await countMailboxes(server, 'paid-online@alice.youju.test')).toBe(1);
    const order = await server.app.database.db
      .selectFrom('orders')
      .selectAll()
      .where('order_no', '=', orderNo)
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({ status: 'delivered', trade_no: `T${orderNo}` });
    expect((await loginMailbox(server, 'paid-online@alice.youju.test', 'online-pass-1')).body.error).toBe(0);
    const lookup = await server.api('GET', `queryOrder?phone=${phone}`);
    expect(lookup.body.data?.[0]).toMatchObject({
      status: 'delivered',
      address: 'paid-online@alice.youju.test',
    });
  });

  it('a signed notice for a manual order changes nothing', async () => {
    const manual = await buy({
      domainId: alice.domain.id,
      localPart: 'manual-only',
      password: 'manual-pass-1',
      phone: newPhone(),
      payMethod: 'manual',
    });
    expectOk(manual.body);
    const answer = await postNotice(gatewayNotice(manual.body.data.orderNo, '9.90'));
    expect(answer.text).toBe('fail');
    expect(await orderStatus(manual.body.data.orderNo)).toBe('pending');
  });
});

describe('order lookup rate limit', () => {
  it('answers 429 in Chinese once one IP looks up too many phones', async () => {
    let limited: { status: number; body: { msg: string } } | null = null;
    for (let i = 0; i < 30 && !limited; i++) {
      const answer = await server.api('GET', `queryOrder?phone=${13900000000 + i}`);
      if (answer.status === 429) limited = answer;
    }
    expect(limited?.body.msg).toMatch(/查询过于频繁/);
  });
});
