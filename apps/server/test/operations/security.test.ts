import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/db/migrate.js';
import { expectOk } from '../support/api.js';
import { createUser, createUserWithDomain } from '../support/fixtures.js';
import { startTestServer, type TestServer, testEngine } from '../support/test-server.js';

let server: TestServer;

beforeAll(async () => {
  // Behind a trusted proxy on loopback, so that a test can log in from a bannable (non-loopback) address.
  server = await startTestServer({ env: { TRUSTED_PROXIES: '127.0.0.1' } });
});
afterAll(async () => server.close());

const CHROME_ON_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

async function loginWith(username: string, password: string, userAgent: string): Promise<string> {
  const { body } = await server.api('POST', 'login', {
    body: { username, password },
    headers: { 'user-agent': userAgent },
  });
  if (body.error !== 0) throw new Error(JSON.stringify(body));
  return body.data.token;
}

describe('sessions', () => {
  it('lists the active sessions with IP, device and times; revokes one or all others', async () => {
    const user = await createUser(server, 'sessionsuser');
    const phone = await loginWith(
      'sessionsuser',
      user.password,
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
    );
    const desktop = await loginWith('sessionsuser', user.password, CHROME_ON_WINDOWS);

    const listed = await server.api('GET', 'user/getSessions', { token: desktop });
    expectOk(listed.body);
    const sessions = listed.body.data as { id: number; device: string; current: boolean; ip: string }[];
    expect(sessions).toHaveLength(3);
    const current = sessions.find((session) => session.current);
    expect(current?.device).toBe('Windows 电脑 · Chrome 浏览器 120');
    expect(current?.ip).toBe('127.0.0.1');
    const iphone = sessions.find((session) => session.device.startsWith('iPhone'));
    expect(iphone).toBeDefined();
    for (const session of sessions) {
      expect(Date.parse((session as unknown as { createdAt: string }).createdAt)).not.toBeNaN();
      expect(Date.parse((session as unknown as { lastSeenAt: string }).lastSeenAt)).not.toBeNaN();
    }

    // Revoke the phone: its token stops working, the desktop carries on.
    const revoked = await server.api('POST', 'user/revokeSession', {
      token: desktop,
      body: { id: iphone?.id },
    });
    expectOk(revoked.body);
    expect((await server.api('GET', 'user/getSessions', { token: phone })).status).toBe(401);
    const self = await server.api('POST', 'user/revokeSession', {
      token: desktop,
      body: { id: current?.id },
    });
    expect(self.status).toBe(400);
    expect(self.body.msg).toMatch(/退出登录/);

    // Someone else's session is not found.
    const other = await createUser(server, 'sessionsother');
    const otherSessions = await server.api('GET', 'user/getSessions', { token: other.token });
    const foreign = await server.api('POST', 'user/revokeSession', {
      token: desktop,
      body: { id: otherSessions.body.data?.[0]?.id },
    });
    expect(foreign.status).toBe(404);
    expect((await server.api('GET', 'user/getSessions', { token: other.token })).status).toBe(200);

    const others = await server.api('POST', 'user/revokeOtherSessions', { token: desktop });
    expect(others.body.data?.revoked).toBe(1);
    expect((await server.api('GET', 'user/getSessions', { token: user.token })).status).toBe(401);
    const left = await server.api('GET', 'user/getSessions', { token: desktop });
    expect(left.body.data).toHaveLength(1);
  });

  it('lets a mailbox session see and end its own sessions', async () => {
    const world = await createUserWithDomain(server, 'sessmail');
    const registered = await server.api('POST', 'regEmail', {
      body: { domainId: world.domainId, localPart: 'sessionbox', password: 'mailbox-pw-1' },
    });
    expectOk(registered.body);
    const first = registered.body.data.token;
    const login = await server.api('POST', 'loginEmail', {
      body: { email: `sessionbox@${world.domain}`, password: 'mailbox-pw-1' },
    });
    expectOk(login.body);
    const second = login.body.data.token;
    const listed = await server.api('GET', 'user/getSessions', { token: second });
    expect(listed.body.data).toHaveLength(2);
    await server.api('POST', 'user/revokeOtherSessions', { token: second });
    expect((await server.api('GET', 'user/getSessions', { token: first })).status).toBe(401);
  });
});

describe('changePassword', () => {
  it('answers a fresh token and ends the other sessions', async () => {
    const user = await createUser(server, 'pwchange');
    const other = await loginWith('pwchange', user.password, CHROME_ON_WINDOWS);
    const changed = await server.api('POST', 'user/changePassword', {
      token: user.token,
      body: { oldPassword: user.password, newPassword: 'brand-new-pw-2' },
    });
    expectOk(changed.body);
    const fresh = changed.body.data.token as string;
    expect((await server.api('GET', 'user/getSessions', { token: fresh })).body.data).toHaveLength(1);
    expect((await server.api('GET', 'user/getSessions', { token: other })).status).toBe(401);
    const wrong = await server.api('POST', 'user/changePassword', {
      token: fresh,
      body: { oldPassword: 'not-it-at-all', newPassword: 'brand-new-pw-3' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toBe('原密码不正确');
  });
});

describe('login history', () => {
  it('records successes and failures with time, IP, device and reason', async () => {
    const user = await createUser(server, 'historyuser');
    await server.api('POST', 'login', {
      body: { username: 'historyuser', password: 'wrong-password' },
      headers: { 'user-agent': CHROME_ON_WINDOWS },
    });
    const token = await loginWith('historyuser', user.password, CHROME_ON_WINDOWS);
    const history = await server.api('GET', 'user/getLoginHistory?page=1&pageSize=10', { token });
    expectOk(history.body);
    expect(history.body.data.total).toBe(3);
    const [latest, failure] = history.body.data.list;
    expect(latest).toMatchObject({ success: true, ip: '127.0.0.1', identifier: 'historyuser', reason: '' });
    expect(latest?.device).toBe('Windows 电脑 · Chrome 浏览器 120');
    expect(failure).toMatchObject({ success: false, reason: '密码错误' });
    // Another account's history is its own.
    const other = await createUser(server, 'historyother');
    const theirs = await server.api('GET', 'user/getLoginHistory', { token: other.token });
    expect(theirs.body.data?.list.every((item) => item.identifier === 'historyother')).toBe(true);
  });

  it('records mailbox logins too', async () => {
    const world = await createUserWithDomain(server, 'histmail');
    await server.api('POST', 'regEmail', {
      body: { domainId: world.domainId, localPart: 'historybox', password: 'mailbox-pw-1' },
    });
    const address = `historybox@${world.domain}`;
    await server.api('POST', 'loginEmail', { body: { email: address, password: 'wrong-password' } });
    const login = await server.api('POST', 'loginEmail', {
      body: { email: address, password: 'mailbox-pw-1' },
    });
    expectOk(login.body);
    const history = await server.api('GET', 'user/getLoginHistory', { token: login.body.data.token });
    expect(history.body.data?.list.map((item) => item.success)).toEqual([true, false]);
  });
});

describe('automatic bans', () => {
  it('puts an IP on the blacklist after repeated failed logins, with reason and expiry', async () => {
    const admin = await server.adminToken();
    await server.api('POST', 'user/updateSetting', {
      token: admin,
      body: { system: { loginMaxFailuresPerIp: 3, loginBanMinutes: 30 } },
    });
    try {
      const from = { 'x-forwarded-for': '203.0.113.3' };
      const answers = [];
      for (let index = 0; index < 3; index++) {
        answers.push(
          await server.api('POST', 'login', {
            body: { username: `nobody${index}`, password: 'guess-123' },
            headers: from,
          }),
        );
      }
      expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400]);
      // An automatic ban is temporary: 429 with Retry-After, not the blacklist's 403.
      const refused = await server.api('GET', 'getVar', { headers: from });
      expect(refused.status).toBe(429);
      expect(refused.body.msg).toMatch(/临时限制/);
      expect((await server.api('GET', 'getVar')).status).toBe(200);

      const list = await server.api('GET', 'waf/getBlacklist', { token: admin });
      const entry = list.body.data?.find((item) => item.ip === '203.0.113.3');
      expect(entry).toMatchObject({ source: 'login', active: true });
      expect(entry?.reason).toMatch(/登录失败 3 次/);
      const minutes = (Date.parse(entry?.expiresAt ?? '') - Date.now()) / 60_000;
      expect(minutes).toBeGreaterThan(29);
      expect(minutes).toBeLessThanOrEqual(30);

      await server.api('GET', 'waf/removeBlacklistIP?ip=203.0.113.3', { token: admin });
      expect((await server.api('GET', 'getVar', { headers: from })).status).toBe(200);
      // 127.0.0.1 (the operator on the host, a local proxy) is never banned, however often it fails.
      for (let index = 0; index < 4; index++) {
        await server.api('POST', 'login', { body: { username: `x${index}`, password: 'guess-123' } });
      }
      expect((await server.api('GET', 'getVar')).status).toBe(200);
    } finally {
      await server.api('POST', 'user/updateSetting', {
        token: admin,
        body: { system: { loginMaxFailuresPerIp: 20, loginBanMinutes: 60 } },
      });
    }
  });
});

describe('getVersion', () => {
  it('reports the release, the platform, the schema and the changelog', async () => {
    const user = await createUser(server, 'versionuser');
    const { body } = await server.api('GET', 'user/getVersion', { token: user.token });
    expectOk(body);
    expect(body.data.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(body.data.node).toBe(process.version);
    expect(body.data.engine).toBe(testEngine);
    expect(body.data.schemaVersion).toBe(SCHEMA_VERSION);
    expect(body.data.uptimeSeconds).toBeGreaterThanOrEqual(0);
    expect(Date.parse(body.data.startedAt)).toBeLessThanOrEqual(Date.now());
    expect(body.data.changelog).toMatch(/^# 更新日志/);
    expect(body.data).toHaveProperty('commit');
    expect(body.data).toHaveProperty('buildDate');
    expect((await server.api('GET', 'user/getVersion')).status).toBe(401);
  });
});
