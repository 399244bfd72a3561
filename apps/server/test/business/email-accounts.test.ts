import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/lib/csv.js';
import { expectOk, getRaw } from '../support/api.js';
import type { TestServer } from '../support/test-server.js';
import {
  loginMailbox,
  mailboxRow,
  mailboxSession,
  type Owner,
  ownerWithDomain,
  startShop,
} from './helpers.js';

let server: TestServer;
let alice: Owner;
let bob: Owner;

beforeAll(async () => {
  ({ server, alice, bob } = await startShop());
});
afterAll(async () => server.close());

async function createAccount(token: string, body: Record<string, unknown>) {
  return server.api('POST', 'user/createEmailAccount', { token, body });
}

describe('mailbox accounts', () => {
  it('creates an account on the caller’s own domain with the default quota, and logs in with it', async () => {
    const created = await createAccount(alice.token, {
      domainId: alice.domain.id,
      localPart: 'Sales',
      password: 'sales-pass-1',
      note: '销售部',
    });
    expectOk(created.body);
    expect(created.body.data).toMatchObject({
      email: 'sales@alice.youju.test',
      enabled: true,
      quotaBytes: 1024 ** 3,
      usedBytes: 0,
      expiresAt: null,
      source: 'manual',
      note: '销售部',
    });
    expect((await loginMailbox(server, 'sales@alice.youju.test', 'sales-pass-1')).body.error).toBe(0);
    const again = await createAccount(alice.token, {
      domainId: alice.domain.id,
      localPart: 'sales',
      password: 'sales-pass-1',
    });
    expect(again.status).toBe(409);
    expect(again.body.msg).toMatch(/已被占用/);
  });

  it('keeps users to their own domains and accounts; mailbox sessions reach none of it', async () => {
    const foreign = await createAccount(bob.token, {
      domainId: alice.domain.id,
      localPart: 'intruder',
      password: 'intruder-1',
    });
    expect(foreign.status).toBe(404);
    const mine = await createAccount(alice.token, {
      domainId: alice.domain.id,
      localPart: 'private',
      password: 'private-1',
    });
    expectOk(mine.body);
    const id = mine.body.data.id;
    const bobList = await server.api('GET', 'user/getEmailAccount', { token: bob.token });
    expect(bobList.body.data?.list.map((a: { email: string }) => a.email)).not.toContain(
      'private@alice.youju.test',
    );
    const bobSearch = await server.api('GET', 'user/searchEmailAccount?content=private', {
      token: bob.token,
    });
    expect(bobSearch.body.data?.total).toBe(0);
    for (const [path, body] of [
      ['user/editEmailAccount', { id, enabled: false }],
      ['user/batchEditEmailAccount', { ids: [id], enabled: false }],
      ['user/delEmailAccount', { ids: [id] }],
    ] as const) {
      const attempt = await server.api('POST', path, { token: bob.token, body });
      expect(attempt.status, path).toBe(404);
    }
    expect((await server.api('GET', `user/getEmailAccountById?id=${id}`, { token: bob.token })).status).toBe(
      404,
    );
    expect((await mailboxRow(server, 'private@alice.youju.test'))?.enabled).toBe(1);

    const mailboxToken = await mailboxSession(server, 'private@alice.youju.test', 'private-1');
    for (const [method, path] of [
      ['GET', 'user/getEmailAccount'],
      ['GET', 'user/searchEmailAccount?content=a'],
      ['POST', 'user/createEmailAccount'],
      ['POST', 'user/delEmailAccount'],
      ['GET', 'user/exportEmailAccount'],
    ] as const) {
      const attempt = await server.api(method, path, {
        token: mailboxToken,
        body: method === 'POST' ? { ids: [id] } : undefined,
      });
      expect(attempt.status, path).toBe(403);
    }
    // The administrator sees everyone's.
    const adminSearch = await server.api('GET', 'user/searchEmailAccount?content=private@alice', {
      token: await server.adminToken(),
    });
    expect(adminSearch.body.data?.total).toBe(1);
  });

  it('respects the domain owner’s mailbox limit (0 = unlimited)', async () => {
    const carol = await ownerWithDomain(server, 'carol', 'carol.youju.test', { maxMailboxes: 2 });
    for (const localPart of ['one', 'two']) {
      const ok = await createAccount(carol.token, {
        domainId: carol.domain.id,
        localPart,
        password: 'limit-pass',
      });
      expectOk(ok.body);
    }
    const third = await createAccount(carol.token, {
      domainId: carol.domain.id,
      localPart: 'three',
      password: 'limit-pass',
    });
    expect(third.status).toBe(403);
    expect(third.body.msg).toMatch(/上限（2 个）/);
  });

  it('searches by address, part of it or note, filters and pages', async () => {
    const dave = await ownerWithDomain(server, 'dave', 'dave.youju.test');
    for (let i = 0; i < 5; i++) {
      await createAccount(dave.token, {
        domainId: dave.domain.id,
        localPart: `staff${i}`,
        password: 'staff-pass',
        note: i === 3 ? '财务 50%_折扣' : '',
        ...(i === 4 ? { expiresAt: Date.now() - 1000 } : {}),
      });
    }
    const page = await server.api('GET', 'user/getEmailAccount?page=2&pageSize=2', { token: dave.token });
    expect(page.body.data).toMatchObject({ total: 5, page: 2, pageSize: 2 });
    expect(page.body.data?.list).toHaveLength(2);
    const byPart = await server.api('GET', 'user/searchEmailAccount?content=STAFF2', { token: dave.token });
    expect(byPart.body.data?.list.map((a: { email: string }) => a.email)).toEqual(['staff2@dave.youju.test']);
    const byNote = await server.api('GET', `user/searchEmailAccount?content=${encodeURIComponent('50%_')}`, {
      token: dave.token,
    });
    expect(byNote.body.data?.list.map((a: { email: string }) => a.email)).toEqual(['staff3@dave.youju.test']);
    // % and _ are literal: "%" alone matches only the one note that has it.
    const percent = await server.api('GET', `user/searchEmailAccount?content=${encodeURIComponent('%')}`, {
      token: dave.token,
    });
    expect(percent.body.data?.total).toBe(1);
    const expired = await server.api('GET', 'user/getEmailAccount?expired=true', { token: dave.token });
    expect(expired.body.data?.list.map((a: { email: string }) => a.email)).toEqual([
      'staff4@dave.youju.test',
    ]);
    const valid = await server.api('GET', 'user/getEmailAccount?expired=false', { token: dave.token });
    expect(valid.body.data?.total).toBe(4);
    const missing = await server.api('GET', 'user/searchEmailAccount', { token: dave.token });
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toContain('搜索内容');
  });

  it('edits: a new password or disabling ends the mailbox’s sessions; an expired mailbox cannot log in', async () => {
    const created = await createAccount(alice.token, {
      domainId: alice.domain.id,
      localPart: 'editme',
      password: 'first-pass',
    });
    expectOk(created.body);
    const id = created.body.data.id;
    const session = await mailboxSession(server, 'editme@alice.youju.test', 'first-pass');
    const edited = await server.api('POST', 'user/editEmailAccount', {
      token: alice.token,
      body: { id, password: 'second-pass', quotaBytes: 5 * 1024 * 1024, note: '改过' },
    });
    expect(edited.body.data).toMatchObject({ quotaBytes: 5 * 1024 * 1024, note: '改过' });
    expect((await server.api('GET', 'user/logout', { token: session })).body.error).toBe(302);
    expect((await loginMailbox(server, 'editme@alice.youju.test', 'first-pass')).status).toBe(400);
    const second = await mailboxSession(server, 'editme@alice.youju.test', 'second-pass');

    await server.api('POST', 'user/editEmailAccount', { token: alice.token, body: { id, enabled: false } });
    expect((await server.api('GET', 'user/logout', { token: second })).body.error).toBe(302);
    const disabled = await loginMailbox(server, 'editme@alice.youju.test', 'second-pass');
    expect(disabled.status).toBe(403);
    expect(disabled.body.msg).toMatch(/停用/);

    await server.api('POST', 'user/editEmailAccount', {
      token: alice.token,
      body: { id, enabled: true, expiresAt: new Date(Date.now() - 60_000).toISOString() },
    });
    const expired = await loginMailbox(server, 'editme@alice.youju.test', 'second-pass');
    expect(expired.status).toBe(403);
    expect(expired.body.msg).toMatch(/已过期/);
    const bad = await server.api('POST', 'user/editEmailAccount', {
      token: alice.token,
      body: { id, expiresAt: '不是时间' },
    });
    expect(bad.status).toBe(400);
  });

  it('batch edits atomically: one foreign id and nothing changes; otherwise all change in one go', async () => {
    const ids: number[] = [];
    for (const localPart of ['batch1', 'batch2', 'batch3']) {
      const created = await createAccount(alice.token, {
        domainId: alice.domain.id,
        localPart,
        password: 'batch-pass',
        expiresAt: Date.now() + 86_400_000,
      });
      expectOk(created.body);
      ids.push(created.body.data.id);
    }
    const bobAccount = await createAccount(bob.token, {
      domainId: bob.domain.id,
      localPart: 'bobs',
      password: 'batch-pass',
    });
    const session = await mailboxSession(server, 'batch1@alice.youju.test', 'batch-pass');

    expectOk(bobAccount.body);
    const mixed = await server.api('POST', 'user/batchEditEmailAccount', {
      token: alice.token,
      body: { ids: [...ids, bobAccount.body.data.id], enabled: false },
    });
    expect(mixed.status).toBe(404);
    expect(mixed.body.msg).toMatch(/未做任何修改/);
    for (const address of ['batch1', 'batch2', 'batch3']) {
      expect((await mailboxRow(server, `${address}@alice.youju.test`))?.enabled).toBe(1);
    }
    expect((await mailboxRow(server, 'bobs@bob.youju.test'))?.enabled).toBe(1);

    const before = (await mailboxRow(server, 'batch2@alice.youju.test'))?.expires_at ?? 0;
    const disabled = await server.api('POST', 'user/batchEditEmailAccount', {
      token: alice.token,
      body: { ids, enabled: false, quotaBytes: 1024, extendDays: 10 },
    });
    expect(disabled.body.data).toEqual({ updated: 3 });
    const after = await mailboxRow(server, 'batch2@alice.youju.test');
    expect(after).toMatchObject({ enabled: 0, quota_bytes: 1024 });
    expect(Number(after?.expires_at) - Number(before)).toBe(10 * 86_400_000);
    expect((await server.api('GET', 'user/logout', { token: session })).body.error).toBe(302);

    const nothing = await server.api('POST', 'user/batchEditEmailAccount', {
      token: alice.token,
      body: { ids },
    });
    expect(nothing.status).toBe(400);
  });

  it('deletes accounts with their mail, all or nothing', async () => {
    const created = await createAccount(alice.token, {
      domainId: alice.domain.id,
      localPart: 'withmail',
      password: 'mail-pass',
    });
    expectOk(created.body);
    const id = created.body.data.id;
    const db = server.app.database.db;
    const raw = await db
      .insertInto('raw_messages')
      .values({ size: 5, sha256: 'x', created_at: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('message_raw_chunks')
      .values({ raw_id: raw.id, seq: 0, data: Buffer.from('hello') })
      .execute();
    await db
      .insertInto('messages')
      .values({
        mailbox_id: id,
        raw_id: raw.id,
        envelope_from: 'a@b.test',
        from_name: '',
        from_address: 'a@b.test',
        subject: '测试',
        snippet: '',
        text_body: 'hello',
        html_body: null,
        to_json: '[]',
        cc_json: '[]',
        attachments_json: '[]',
        message_id: '<m@b.test>',
        sent_at: null,
        received_at: Date.now(),
        size: 5,
        read: 0,
        starred: 0,
        spam: 0,
        has_attachments: 0,
        parse_error: null,
        // Written straight into the table: the first UID of the mailbox's inbox (folder-repo.ts).
        uid: 1,
      })
      .execute();

    const foreign = await server.api('POST', 'user/delEmailAccount', {
      token: bob.token,
      body: { ids: [id] },
    });
    expect(foreign.status).toBe(404);
    const removed = await server.api('POST', 'user/delEmailAccount', {
      token: alice.token,
      body: { ids: [id] },
    });
    expect(removed.body.data).toEqual({ deleted: 1 });
    expect(await mailboxRow(server, 'withmail@alice.youju.test')).toBeUndefined();
    expect(await db.selectFrom('messages').select('id').where('mailbox_id', '=', id).execute()).toHaveLength(
      0,
    );
    expect(await db.selectFrom('raw_messages').select('id').where('id', '=', raw.id).execute()).toHaveLength(
      0,
    );
  });

  it('imports CSV row by row with Chinese reasons, and exports CSV with a BOM', async () => {
    await createAccount(alice.token, {
      domainId: alice.domain.id,
      localPart: 'existing',
      password: 'exist-pass',
    });
    const csv = [
      '邮箱地址,密码,容量(MB),过期时间,备注,状态',
      'new1@alice.youju.test,pass-new-1,100,2099-12-31 23:59,"第一, 号",启用',
      'new2@alice.youju.test,pass-new-2,,,,停用',
      'existing@alice.youju.test,pass-new-3,,,,',
      'x@bob.youju.test,pass-new-4,,,,',
      'not-an-address,pass-new-5,,,,',
      'short@alice.youju.test,123,,,,',
      'new3@alice.youju.test,pass-new-6,很多,,,',
      'new4@alice.youju.test,pass-new-7,,明天,,',
      'new1@alice.youju.test,pass-new-8,,,,',
    ].join('\r\n');
    const result = await server.api('POST', 'user/importEmailAccount', { token: alice.token, body: { csv } });
    expectOk(result.body);
    expect(result.body.data).toMatchObject({ created: 2, failed: 7 });
    const reasons = Object.fromEntries(
      result.body.data.rows.map((row: { line: number; reason?: string }) => [row.line, row.reason ?? 'ok']),
    );
    expect(reasons[2]).toBe('ok');
    expect(reasons[3]).toBe('ok');
    expect(reasons[4]).toMatch(/已被占用/);
    expect(reasons[5]).toMatch(/域名 bob.youju.test 不存在或不属于你/);
    expect(reasons[6]).toMatch(/邮箱地址格式不正确/);
    expect(reasons[7]).toMatch(/密码长度/);
    expect(reasons[8]).toMatch(/容量/);
    expect(reasons[9]).toMatch(/过期时间/);
    expect(reasons[10]).toMatch(/重复/);
    const first = await mailboxRow(server, 'new1@alice.youju.test');
    expect(first).toMatchObject({
      quota_bytes: 100 * 1024 * 1024,
      note: '第一, 号',
      enabled: 1,
      source: 'import',
    });
    expect(first?.expires_at).toBe(Date.parse('2099-12-31T15:59:00Z'));
    expect((await mailboxRow(server, 'new2@alice.youju.test'))?.enabled).toBe(0);
    expect((await loginMailbox(server, 'new1@alice.youju.test', 'pass-new-1')).body.error).toBe(0);

    const broken = await server.api('POST', 'user/importEmailAccount', {
      token: alice.token,
      body: { csv: 'a@alice.youju.test,"unterminated' },
    });
    expect(broken.status).toBe(400);
    expect(broken.body.msg).toMatch(/CSV/);

    const response = await getRaw(server, 'user/exportEmailAccount?content=new1', { token: alice.token });
    expect(response.headers.get('content-type')).toMatch(/text\/csv; charset=utf-8/);
    expect(response.headers.get('content-disposition')).toMatch(/attachment/);
    const { bytes } = response;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const records = parseCsv(bytes.toString('utf8'));
    expect(records).toEqual([
      ['邮箱地址', '容量(MB)', '已用(MB)', '过期时间', '状态', '备注'],
      ['new1@alice.youju.test', '100', '0', '2099-12-31 23:59', '启用', '第一, 号'],
    ]);
  });
});
