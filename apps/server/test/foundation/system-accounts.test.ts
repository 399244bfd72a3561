import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDefined, expectOk } from '../support/api.js';
import { addDomain, createUser } from '../support/fixtures.js';
import { startTestServerAsAdmin, type TestServer } from '../support/test-server.js';

let server: TestServer;
let admin: string;
beforeAll(async () => {
  ({ server, admin } = await startTestServerAsAdmin());
});
afterAll(async () => server.close());

describe('system accounts', () => {
  it('creates, lists with paging, edits and deletes accounts', async () => {
    const created = await server.api('POST', 'admin/createSysAccount', {
      token: admin,
      body: { username: 'operator', password: 'operator-pw', role: 'user', maxDomains: 3, maxMailboxes: 100 },
    });
    expect(created.body).toMatchObject({
      error: 0,
      data: {
        username: 'operator',
        role: 'user',
        enabled: true,
        maxDomains: 3,
        maxMailboxes: 100,
        lastLoginAt: null,
      },
    });
    expect(created.body.data).not.toHaveProperty('password_hash');
    expect(created.body.data).not.toHaveProperty('passwordHash');
    expectOk(created.body);
    const id = created.body.data.id;

    const duplicate = await server.api('POST', 'admin/createSysAccount', {
      token: admin,
      body: { username: 'operator', password: 'operator-pw', role: 'user' },
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.msg).toMatch(/已存在/);

    const page = await server.api('GET', 'admin/getSysAccount?page=1&pageSize=1', { token: admin });
    expect(page.body.data).toMatchObject({ total: 2, page: 1, pageSize: 1 });
    expect(page.body.data?.list).toHaveLength(1);
    const page2 = await server.api('GET', 'admin/getSysAccount?page=2&pageSize=1', { token: admin });
    expect(page2.body.data?.list[0]?.username).toBe('operator');

    const edited = await server.api('POST', 'admin/editSysAccount', {
      token: admin,
      body: { id, role: 'admin', maxDomains: 0 },
    });
    expect(edited.body.data).toMatchObject({ role: 'admin', maxDomains: 0 });

    expect((await server.api('POST', 'admin/delSysAccount', { token: admin, body: { id } })).body.error).toBe(
      0,
    );
    const missing = await server.api('POST', 'admin/editSysAccount', {
      token: admin,
      body: { id, enabled: false },
    });
    expect(missing.status).toBe(404);
  });

  it('validates input with Chinese messages', async () => {
    const bad = await server.api('POST', 'admin/createSysAccount', {
      token: admin,
      body: { username: 'x', password: 'short', role: 'root' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/用户名|密码|角色/);
  });

  it('never removes the last administrator', async () => {
    const list = await server.api('GET', 'admin/getSysAccount', { token: admin });
    expectOk(list.body);
    const self = expectDefined(
      list.body.data.list.find((account) => account.username === 'admin'),
      'the administrator account',
    );
    const demote = await server.api('POST', 'admin/editSysAccount', {
      token: admin,
      body: { id: self.id, role: 'user' },
    });
    expect(demote.status).toBe(409);
    expect(demote.body.msg).toMatch(/最后一个/);
    const disable = await server.api('POST', 'admin/editSysAccount', {
      token: admin,
      body: { id: self.id, enabled: false },
    });
    expect(disable.status).toBe(409);

    // With a second administrator, the first may be demoted; the second then cannot delete itself
    // nor be deleted as the last one.
    const second = await createUser(server, 'second-admin', { role: 'admin' });
    const demoted = await server.api('POST', 'admin/editSysAccount', {
      token: second.token,
      body: { id: self.id, role: 'user' },
    });
    expectOk(demoted.body);
    const selfDelete = await server.api('POST', 'admin/delSysAccount', {
      token: second.token,
      body: { id: second.id },
    });
    expect(selfDelete.status).toBe(409);
    // the demoted first admin has lost admin calls at once
    expect((await server.api('GET', 'admin/getSysAccount', { token: admin })).status).toBe(403);
    await server.api('POST', 'admin/editSysAccount', {
      token: second.token,
      body: { id: self.id, role: 'admin' },
    });
  });

  it('refuses to delete an account that still owns domains', async () => {
    const owner = await createUser(server, 'domain-owner');
    await addDomain(server, owner.token, 'owned.youju.test');
    const refused = await server.api('POST', 'admin/delSysAccount', { token: admin, body: { id: owner.id } });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toMatch(/域名/);
  });

  it('is reachable by administrators only', async () => {
    const user = await createUser(server, 'plain-user');
    for (const [method, path] of [
      ['GET', 'admin/getSysAccount'],
      ['POST', 'admin/createSysAccount'],
      ['POST', 'admin/editSysAccount'],
      ['POST', 'admin/delSysAccount'],
    ] as const) {
      const asUser = await server.api(method, path, {
        token: user.token,
        body: method === 'POST' ? {} : undefined,
      });
      expect(asUser.status, path).toBe(403);
      const anonymous = await server.api(method, path, { body: method === 'POST' ? {} : undefined });
      expect(anonymous.body.error, path).toBe(302);
    }
  });
});
