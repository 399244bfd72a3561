import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_PERMISSION_KEY, decryptPermissionData, type PermissionData } from '@youju/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk } from '../support/api.js';
import { addDomain, createUser } from '../support/fixtures.js';
import { ADMIN_PASSWORD, ADMIN_USER, startTestServer, type TestServer } from '../support/test-server.js';

describe('first-run set-up', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ initAdmin: false });
  });
  afterAll(async () => server.close());

  it('writes a one-time set-up token and reports the system as not initialised', async () => {
    const token = (await readFile(join(server.dataDir, 'setup-token'), 'utf8')).trim();
    expect(token.length).toBeGreaterThanOrEqual(16);
    expect(((await stat(join(server.dataDir, 'setup-token'))).mode & 0o777).toString(8)).toBe('600');
    const { body } = await server.api('GET', 'getVar');
    expect(body.settings.initialized).toBe(false);
  });

  it('refuses a wrong token, then creates the administrator once with the right one', async () => {
    const wrong = await server.api('POST', 'startAuth', {
      body: { setupToken: 'wrong-token-value', username: 'boss', password: 'boss-password' },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body.msg).toMatch(/初始化令牌不正确/);

    const setupToken = (await readFile(join(server.dataDir, 'setup-token'), 'utf8')).trim();
    const ok = await server.api('POST', 'startAuth', {
      body: { setupToken, username: 'boss', password: 'boss-password' },
    });
    expect(ok.body).toMatchObject({ error: 0, data: { role: 'admin', username: 'boss' } });
    expectOk(ok.body);
    const domains = await server.api('GET', 'user/getDomains', { token: ok.body.data.token });
    expectOk(domains.body);

    const again = await server.api('POST', 'startAuth', {
      body: { setupToken, username: 'boss2', password: 'boss-password' },
    });
    expect(again.status).toBe(409);
    await expect(stat(join(server.dataDir, 'setup-token'))).rejects.toThrow();
    expect((await server.api('GET', 'getVar')).body.settings.initialized).toBe(true);
  });
});

describe('logins and sessions', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  it('creates the administrator from INIT_ADMIN_USER and logs in', async () => {
    const { body } = await server.api('POST', 'login', {
      body: { username: ADMIN_USER, password: ADMIN_PASSWORD },
    });
    expect(body).toMatchObject({ error: 0, data: { role: 'admin', username: ADMIN_USER } });
    expect(body.data?.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  });

  it('stores tokens hashed, never in clear', async () => {
    const token = await server.adminToken();
    const rows = await server.app.database.db.selectFrom('sessions').select('token_hash').execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((row) => row.token_hash === token)).toBe(false);
    const accounts = await server.app.database.db
      .selectFrom('system_accounts')
      .select('password_hash')
      .execute();
    expect(accounts.every((row) => row.password_hash.startsWith('scrypt$'))).toBe(true);
  });

  it('refuses a wrong password with a Chinese message', async () => {
    const { status, body } = await server.api('POST', 'login', {
      body: { username: ADMIN_USER, password: 'nope-nope' },
    });
    expect(status).toBe(400);
    expect(body.msg).toBe('用户名或密码错误');
  });

  it('revokes the token on logout', async () => {
    const login = await server.api('POST', 'login', {
      body: { username: ADMIN_USER, password: ADMIN_PASSWORD },
    });
    expectOk(login.body);
    const token = login.body.data.token;
    expect((await server.api('GET', 'user/logout', { token })).body.error).toBe(0);
    expect((await server.api('GET', 'user/getDomains', { token })).body).toMatchObject({
      error: 302,
      url: '/auth',
    });
  });

  it('revokes every session on password change and returns a fresh token', async () => {
    const user = await createUser(server, 'changer');
    const secondLogin = await server.api('POST', 'login', {
      body: { username: 'changer', password: user.password },
    });
    expectOk(secondLogin.body);
    const second = secondLogin.body.data.token;
    const wrongOld = await server.api('POST', 'user/changePassword', {
      token: user.token,
      body: { oldPassword: 'wrong-one', newPassword: 'new-password-1' },
    });
    expect(wrongOld.body).toMatchObject({ error: 400, msg: '原密码不正确' });
    const changed = await server.api('POST', 'user/changePassword', {
      token: user.token,
      body: { oldPassword: user.password, newPassword: 'new-password-1' },
    });
    expectOk(changed.body);
    expect((await server.api('GET', 'user/getDomains', { token: user.token })).body.error).toBe(302);
    expect((await server.api('GET', 'user/getDomains', { token: second })).body.error).toBe(302);
    expect((await server.api('GET', 'user/getDomains', { token: changed.body.data.token })).body.error).toBe(
      0,
    );
    const old = await server.api('POST', 'login', { body: { username: 'changer', password: user.password } });
    expect(old.body.error).toBe(400);
    const fresh = await server.api('POST', 'login', {
      body: { username: 'changer', password: 'new-password-1' },
    });
    expectOk(fresh.body);
  });

  it('revokes sessions when an account is disabled and refuses its login', async () => {
    const user = await createUser(server, 'tobedisabled');
    const admin = await server.adminToken();
    await server.api('POST', 'admin/editSysAccount', { token: admin, body: { id: user.id, enabled: false } });
    expect((await server.api('GET', 'user/getDomains', { token: user.token })).body.error).toBe(302);
    const login = await server.api('POST', 'login', {
      body: { username: 'tobedisabled', password: user.password },
    });
    expect(login.status).toBe(403);
    expect(login.body.msg).toMatch(/停用/);
  });

  it('throttles failed logins per account', async () => {
    await createUser(server, 'victim');
    const attempts = [];
    for (let i = 0; i < 6; i++) {
      attempts.push(
        await server.api('POST', 'login', { body: { username: 'victim', password: `wrong-${i}` } }),
      );
    }
    expect(attempts.slice(0, 5).every((a) => a.status === 400)).toBe(true);
    expect(attempts[5]!.status).toBe(429);
    expect(attempts[5]!.body.msg).toMatch(/失败次数过多/);
    // the right password is refused too while the account is locked
    const locked = await server.api('POST', 'login', {
      body: { username: 'victim', password: 'user-password-1' },
    });
    expect(locked.status).toBe(429);
  });
});

describe('mailbox registration and login', () => {
  let server: TestServer;
  let openDomain: { id: number; name: string };
  let closedDomain: { id: number; name: string };
  beforeAll(async () => {
    server = await startTestServer();
    const admin = await server.adminToken();
    openDomain = await addDomain(server, admin, 'open.youju.test', { publicRegistration: true });
    closedDomain = await addDomain(server, admin, 'closed.youju.test');
  });
  afterAll(async () => server.close());

  it('lists only domains open for registration', async () => {
    const { body } = await server.api('GET', 'getArrDomains');
    expect(body.data).toEqual([{ id: openDomain.id, name: 'open.youju.test' }]);
  });

  it('registers a temporary mailbox with a random name and no password', async () => {
    const { body } = await server.api('POST', 'regEmail', { body: { domainId: openDomain.id } });
    expectOk(body);
    expect(body.data.email).toMatch(/^[a-z0-9]{10}@open\.youju\.test$/);
    const expires = Date.parse(body.data.expiresAt ?? '');
    expect(expires).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    const vars = await server.api('GET', 'getVar', { token: body.data.token });
    const permission: PermissionData = JSON.parse(
      decryptPermissionData(vars.body.permissionData, DEFAULT_PERMISSION_KEY),
    );
    expect(permission).toMatchObject({ role: 'mailbox', name: body.data.email });
    // a mailbox session does not reach system-account calls
    expect((await server.api('GET', 'user/getDomains', { token: body.data.token })).status).toBe(403);
    // no password: it cannot log in with one
    const login = await server.api('POST', 'loginEmail', {
      body: { email: body.data.email, password: 'anything' },
    });
    expect(login.body.error).toBe(400);
  });

  it('registers a chosen name with a password, then logs in with it', async () => {
    const reg = await server.api('POST', 'regEmail', {
      body: { domainId: openDomain.id, localPart: 'Zhang.San', password: 'mailbox-pass' },
    });
    expect(reg.body).toMatchObject({
      error: 0,
      data: { email: 'zhang.san@open.youju.test', expiresAt: null },
    });
    const taken = await server.api('POST', 'regEmail', {
      body: { domainId: openDomain.id, localPart: 'zhang.san', password: 'mailbox-pass' },
    });
    expect(taken.status).toBe(409);
    const login = await server.api('POST', 'loginEmail', {
      body: { email: 'ZHANG.SAN@open.youju.test', password: 'mailbox-pass' },
    });
    expect(login.body).toMatchObject({ error: 0, data: { email: 'zhang.san@open.youju.test' } });
    const wrong = await server.api('POST', 'loginEmail', {
      body: { email: 'zhang.san@open.youju.test', password: 'mailbox-wrong' },
    });
    expect(wrong.body).toMatchObject({ error: 400, msg: '邮箱地址或密码错误' });
  });

  it('refuses registration on a closed domain and bad local parts', async () => {
    const closed = await server.api('POST', 'regEmail', { body: { domainId: closedDomain.id } });
    expect(closed.status).toBe(400);
    expect(closed.body.msg).toMatch(/不开放注册/);
    const bad = await server.api('POST', 'regEmail', {
      body: { domainId: openDomain.id, localPart: 'a b@c' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('邮箱前缀');
  });

  it('refuses registration when the administrator closed it', async () => {
    await server.app.services.settings.update({ registrationOpen: false });
    const { status, body } = await server.api('POST', 'regEmail', { body: { domainId: openDomain.id } });
    expect(status).toBe(403);
    expect(body.msg).toMatch(/未开放注册/);
    await server.app.services.settings.update({ registrationOpen: true });
  });

  it('refuses an expired mailbox at login and ends its sessions', async () => {
    const reg = await server.api('POST', 'regEmail', {
      body: { domainId: openDomain.id, localPart: 'shortlived', password: 'mailbox-pass' },
    });
    await server.app.database.db
      .updateTable('mailboxes')
      .set({ expires_at: Date.now() - 1000 })
      .where('address', '=', 'shortlived@open.youju.test')
      .execute();
    const login = await server.api('POST', 'loginEmail', {
      body: { email: 'shortlived@open.youju.test', password: 'mailbox-pass' },
    });
    expect(login.status).toBe(403);
    expect(login.body.msg).toMatch(/过期/);
    expect((await server.api('GET', 'user/logout', { token: reg.body.data?.token })).body.error).toBe(302);
  });
});
