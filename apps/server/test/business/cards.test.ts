import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/lib/csv.js';
import { type DataOf, expectDefined, expectOk, getRaw } from '../support/api.js';
import type { TestServer } from '../support/test-server.js';
import {
  countMailboxes,
  loginMailbox,
  mailboxRow,
  mailboxSession,
  type Owner,
  ownerWithDomain,
  startShop,
} from './helpers.js';

let server: TestServer;
let admin: string;
let alice: Owner;
let bob: Owner;

beforeAll(async () => {
  ({ server, admin, alice, bob } = await startShop());
  // Every redemption here comes from one address; the per-address sign-up limit has its own test
  // (test/security/signup-limits.test.ts).
  await server.api('POST', 'user/updateSetting', {
    token: admin,
    body: { system: { registerPerIpPerHour: 0 } },
  });
});
afterAll(async () => server.close());

async function createCards(token: string, body: Record<string, unknown>): Promise<DataOf<'user/createCard'>> {
  const created = await server.api('POST', 'user/createCard', { token, body });
  if (created.body.error !== 0) throw new Error(JSON.stringify(created.body));
  return created.body.data;
}

function redeem(body: Record<string, unknown>) {
  return server.api('POST', 'verCard', { body });
}

describe('cards', () => {
  it('generates 1–1000 unguessable codes per batch, lists them with a status filter and exports the batch', async () => {
    for (const count of [0, 1001]) {
      const refused = await server.api('POST', 'user/createCard', {
        token: alice.token,
        body: { count, validDays: 30 },
      });
      expect(refused.status, String(count)).toBe(400);
      expect(refused.body.msg).toContain('数量');
    }
    const big = await createCards(alice.token, { count: 1000, validDays: 30, domainId: alice.domain.id });
    expect(new Set(big.codes).size).toBe(1000);
    for (const code of big.codes) expect(code).toMatch(/^YJ(-[0-9A-HJKMNP-TV-Z]{4}){4}$/);

    const batch = await createCards(alice.token, {
      count: 3,
      validDays: 7,
      quotaBytes: 10 * 1024 * 1024,
      domainId: alice.domain.id,
      note: '活动赠送',
    });
    const list = await server.api('GET', `user/getCard?batchId=${batch.batchId}`, { token: alice.token });
    expect(list.body.data?.total).toBe(3);
    expect(list.body.data?.list[0]).toMatchObject({
      domainId: alice.domain.id,
      domainName: 'alice.youju.test',
      validDays: 7,
      quotaBytes: 10 * 1024 * 1024,
      status: 'unused',
      usedBy: null,
      note: '活动赠送',
      batchId: batch.batchId,
    });
    const unused = await server.api('GET', 'user/getCard?status=unused&pageSize=1', { token: alice.token });
    expect(unused.body.data?.total).toBe(1003);
    const batches = await server.api('GET', 'user/getCardBatches', { token: alice.token });
    expect(batches.body.data?.[0]).toMatchObject({
      batchId: batch.batchId,
      count: 3,
      unused: 3,
      note: '活动赠送',
    });

    const csvBytes = (
      await getRaw(server, `user/exportCard?batchId=${batch.batchId}`, { token: alice.token })
    ).bytes;
    expect([...csvBytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const records = parseCsv(csvBytes.toString('utf8'));
    expect(records[0]).toEqual([
      '卡密',
      '域名',
      '有效天数',
      '容量(MB)',
      '状态',
      '使用者',
      '备注',
      '创建时间',
    ]);
    expect(
      records
        .slice(1)
        .map((r) => r[0])
        .sort(),
    ).toEqual([...batch.codes].sort());
    expect(records[1]?.slice(1, 7)).toEqual(['alice.youju.test', '7', '10', '未使用', '', '活动赠送']);
    const txt = await getRaw(server, `user/exportCard?batchId=${batch.batchId}&format=txt`, {
      token: alice.token,
    });
    expect(txt.bytes.toString().trim().split('\r\n').sort()).toEqual([...batch.codes].sort());
  });

  it('redeems a code for a new mailbox people can log in to, exactly once', async () => {
    const { codes } = await createCards(alice.token, {
      count: 1,
      validDays: 30,
      quotaBytes: 20 * 1024 * 1024,
      domainId: alice.domain.id,
    });
    const code = codes[0] ?? '';
    // Typed the way people type: lower case, spaces instead of hyphens.
    const typed = code.toLowerCase().replace(/-/g, ' ');
    const redeemed = await redeem({ code: typed, localPart: 'Redeemed', password: 'card-pass-1' });
    expectOk(redeemed.body);
    expect(redeemed.body.data).toMatchObject({ address: 'redeemed@alice.youju.test', extended: false });
    const days = (Date.parse(redeemed.body.data.expiresAt ?? '') - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    expect(await mailboxRow(server, 'redeemed@alice.youju.test')).toMatchObject({
      quota_bytes: 20 * 1024 * 1024,
      source: 'card',
      owner_id: alice.id,
    });
    expect((await loginMailbox(server, 'redeemed@alice.youju.test', 'card-pass-1')).body.error).toBe(0);

    const again = await redeem({ code, localPart: 'another', password: 'card-pass-1' });
    expect(again.status).toBe(409);
    expect(again.body.msg).toMatch(/已被使用/);
    const card = await server.api('GET', 'user/getCard?status=used', { token: alice.token });
    expectOk(card.body);
    const used = expectDefined(card.body.data.list[0], 'the used card');
    expect(used).toMatchObject({
      code,
      status: 'used',
      usedBy: 'redeemed@alice.youju.test',
    });
    const edit = await server.api('POST', 'user/editCard', {
      token: alice.token,
      body: { id: used.id, status: 'disabled' },
    });
    expect(edit.status).toBe(409);
  });

  it('under 50 concurrent redemptions of one code: one mailbox, 49 clear refusals', async () => {
    const { codes } = await createCards(alice.token, { count: 1, validDays: 10, domainId: alice.domain.id });
    const code = codes[0];
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => redeem({ code, localPart: `racer${i}`, password: 'race-pass-1' })),
    );
    const won = answers.filter((a) => a.body.error === 0);
    const lost = answers.filter((a) => a.body.error !== 0);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(49);
    for (const answer of lost) {
      expect(answer.status).toBe(409);
      expect(answer.body.msg).toBe('该卡密已被使用，每个卡密只能兑换一次');
    }
    const racers = await server.app.database.db
      .selectFrom('mailboxes')
      .select('address')
      .where('address', 'like', 'racer%')
      .execute();
    expect(racers.map((r) => r.address)).toEqual([won[0]?.body.data?.address]);
  });

  it('extends an existing mailbox when its password matches, and refuses otherwise without using the card', async () => {
    const { codes } = await createCards(alice.token, { count: 2, validDays: 10, domainId: alice.domain.id });
    const account = await server.api('POST', 'user/createEmailAccount', {
      token: alice.token,
      body: {
        domainId: alice.domain.id,
        localPart: 'renew',
        password: 'renew-pass',
        expiresAt: Date.now() + 5 * 86_400_000,
      },
    });
    expectOk(account.body);
    const before = Date.parse(account.body.data.expiresAt ?? '');
    const wrong = await redeem({ code: codes[0], localPart: 'renew', password: 'not-the-password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toMatch(/密码不正确/);
    const extended = await redeem({ code: codes[0], localPart: 'renew', password: 'renew-pass' });
    expect(extended.body.data).toMatchObject({ address: 'renew@alice.youju.test', extended: true });
    expect(Date.parse(extended.body.data?.expiresAt ?? '') - before).toBe(10 * 86_400_000);
    expect(await countMailboxes(server, 'renew@alice.youju.test')).toBe(1);

    // An expired mailbox is extended from now, and can log in again.
    await server.api('POST', 'user/editEmailAccount', {
      token: alice.token,
      body: { id: account.body.data.id, expiresAt: Date.now() - 86_400_000 },
    });
    expect((await loginMailbox(server, 'renew@alice.youju.test', 'renew-pass')).status).toBe(403);
    const revived = await redeem({ code: codes[1], localPart: 'renew', password: 'renew-pass' });
    expect(Date.parse(revived.body.data?.expiresAt ?? '')).toBeGreaterThan(Date.now() + 9.9 * 86_400_000);
    expect((await loginMailbox(server, 'renew@alice.youju.test', 'renew-pass')).body.error).toBe(0);
  });

  it('a disabled card redeems nothing; re-enabled it works', async () => {
    const { codes, batchId } = await createCards(alice.token, {
      count: 1,
      validDays: 3,
      domainId: alice.domain.id,
    });
    const list = await server.api('GET', `user/getCard?batchId=${batchId}`, { token: alice.token });
    expectOk(list.body);
    const { id } = expectDefined(list.body.data.list[0], 'the card');
    const disabled = await server.api('POST', 'user/editCard', {
      token: alice.token,
      body: { id, status: 'disabled', note: '暂停' },
    });
    expect(disabled.body.data).toMatchObject({ status: 'disabled', note: '暂停' });
    const refused = await redeem({ code: codes[0], localPart: 'paused', password: 'paused-pass' });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toMatch(/停用/);
    await server.api('POST', 'user/editCard', { token: alice.token, body: { id, status: 'unused' } });
    expect((await redeem({ code: codes[0], localPart: 'paused', password: 'paused-pass' })).body.error).toBe(
      0,
    );
  });

  it('a card without a domain opens only its creator’s open domains (an administrator’s: any)', async () => {
    const closed = await ownerWithDomain(server, 'closed', 'closed.youju.test', {
      publicRegistration: false,
    });
    const { codes } = await createCards(alice.token, { count: 2, validDays: 5 });
    const noDomain = await redeem({ code: codes[0], localPart: 'anywhere', password: 'any-pass-1' });
    expect(noDomain.status).toBe(400);
    expect(noDomain.body.msg).toMatch(/请选择域名/);
    const foreign = await redeem({
      code: codes[0],
      localPart: 'anywhere',
      password: 'any-pass-1',
      domainId: bob.domain.id,
    });
    expect(foreign.status).toBe(404);
    const own = await redeem({
      code: codes[0],
      localPart: 'anywhere',
      password: 'any-pass-1',
      domainId: alice.domain.id,
    });
    expect(own.body.data?.address).toBe('anywhere@alice.youju.test');

    const adminCards = await createCards(admin, { count: 2, validDays: 5 });
    const onBob = await redeem({
      code: adminCards.codes[0],
      localPart: 'fromadmin',
      password: 'any-pass-1',
      domainId: bob.domain.id,
    });
    expect(onBob.body.data?.address).toBe('fromadmin@bob.youju.test');
    const notOpen = await redeem({
      code: adminCards.codes[1],
      localPart: 'fromadmin',
      password: 'any-pass-1',
      domainId: closed.domain.id,
    });
    expect(notOpen.status).toBe(404);

    // A card bound to a domain cannot be spent on another one.
    const bound = await createCards(alice.token, { count: 1, validDays: 5, domainId: alice.domain.id });
    const elsewhere = await redeem({
      code: bound.codes[0],
      localPart: 'moved',
      password: 'any-pass-1',
      domainId: bob.domain.id,
    });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.msg).toMatch(/只能兑换 alice.youju.test/);
  });

  it('keeps cards to their creator: others cannot see, edit, delete or export them', async () => {
    const { batchId } = await createCards(alice.token, { count: 2, validDays: 5, domainId: alice.domain.id });
    const own = await server.api('GET', `user/getCard?batchId=${batchId}`, { token: alice.token });
    expectOk(own.body);
    const ids = own.body.data.list.map((c) => c.id);
    const bobView = await server.api('GET', `user/getCard?batchId=${batchId}`, { token: bob.token });
    expect(bobView.body.data?.total).toBe(0);
    const bobEdit = await server.api('POST', 'user/editCard', {
      token: bob.token,
      body: { id: ids[0], note: 'x' },
    });
    expect(bobEdit.status).toBe(404);
    const bobDelete = await server.api('POST', 'user/delCard', { token: bob.token, body: { ids } });
    expect(bobDelete.status).toBe(404);
    const bobExport = await server.api('GET', `user/exportCard?batchId=${batchId}`, { token: bob.token });
    expect(bobExport.status).toBe(404);
    const bobCard = await server.api('POST', 'user/createCard', {
      token: bob.token,
      body: { count: 1, validDays: 5, domainId: alice.domain.id },
    });
    expect(bobCard.status).toBe(404);
    const mixed = await server.api('POST', 'user/delCard', {
      token: alice.token,
      body: { ids: [...ids, 999_999] },
    });
    expect(mixed.status).toBe(404);
    const adminView = await server.api('GET', `user/getCard?batchId=${batchId}`, { token: admin });
    expect(adminView.body.data?.total).toBe(2);
    const removed = await server.api('POST', 'user/delCard', { token: alice.token, body: { ids } });
    expect(removed.body.data).toEqual({ deleted: 2 });

    const mailbox = await server.api('POST', 'user/createEmailAccount', {
      token: alice.token,
      body: { domainId: alice.domain.id, localPart: 'cardless', password: 'cardless-1' },
    });
    expectOk(mailbox.body);
    const session = await mailboxSession(server, 'cardless@alice.youju.test', 'cardless-1');
    for (const [method, path] of [
      ['GET', 'user/getCard'],
      ['POST', 'user/createCard'],
      ['POST', 'user/editCard'],
      ['POST', 'user/delCard'],
    ] as const) {
      const attempt = await server.api(method, path, {
        token: session,
        body: method === 'POST' ? { count: 1, validDays: 1, id: 1, ids: [1] } : undefined,
      });
      expect(attempt.status, path).toBe(403);
    }
  });
});
