import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGLISH } from '../../src/lib/i18n/en.js';
import { requestLanguage, toEnglish } from '../../src/lib/i18n/index.js';
import { type ApiCallOptions, callApi, expectOk, type HttpMethod } from '../support/api.js';
import { type RunningDnsServer, startDnsmasq } from '../support/dns-servers.js';
import { addDomain, createUser, uniqueUsername } from '../support/fixtures.js';
import { startTestServerAsAdmin, stopAll, type TestServer } from '../support/test-server.js';

/** Chinese (and full-width punctuation): an English message has none (issue 17 item 7). */
const CJK = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;
const placeholders = (text: string) => text.split('{}').length - 1;

describe('the English catalogue (lib/i18n/en.ts)', () => {
  it('gives every entry as many values as its key, and no Chinese', () => {
    for (const [chinese, english] of Object.entries(ENGLISH)) {
      expect({ chinese, count: placeholders(english) }).toEqual({ chinese, count: placeholders(chinese) });
      expect({ chinese, english, cjk: CJK.test(english) }).toEqual({ chinese, english, cjk: false });
    }
  });

  it('translates the values of a built message in turn (a field label, a DNS record)', () => {
    expect(toEnglish('缺少参数：密码（password）')).toBe('Missing parameter: Password (password)');
    expect(toEnglish('参数 新密码（newPassword） 至少需要 6 个字符')).toBe(
      'Parameter New password (newPassword) needs at least 6 characters',
    );
    expect(
      toEnglish(
        '没有找到 MX 记录。请在域名 a.example 的 DNS 解析中添加一条 MX 记录：主机记录 @（即 a.example.），记录值 mail.example，优先级 10',
      ),
    ).toBe(
      'No MX record found. To fix it: in the DNS of the domain a.example, add a record of type MX with host @ (that is a.example.), value mail.example and priority 10',
    );
    expect(toEnglish('Windows 电脑 · Chrome 浏览器 120')).toBe('Windows PC · Chrome 120');
  });
});

describe('failures in English over HTTP', () => {
  let dns: RunningDnsServer;
  let server: TestServer;
  let admin: string;
  const EN = { 'accept-language': 'en' };

  beforeAll(async () => {
    dns = await startDnsmasq({
      local: ['youju.test'],
      a: [{ name: 'elsewhere.youju.test', ip: '192.0.2.77' }],
    });
    ({ server, admin } = await startTestServerAsAdmin({
      env: { DNS_SERVERS: dns.address, MAIL_HOSTNAME: 'elsewhere.youju.test' },
    }));
  });
  afterAll(() => stopAll(server, dns));

  async function call(method: HttpMethod, path: string, options: ApiCallOptions = {}) {
    const answer = await callApi(server.baseUrl, method, path, options);
    return { status: answer.status, body: answer.body as { error: number; msg: string } };
  }

  /** The same call without a language and in English: Chinese unchanged, English without Chinese. */
  async function both(method: HttpMethod, path: string, options: ApiCallOptions = {}) {
    const chinese = await call(method, path, options);
    const english = await call(method, path, { ...options, headers: { ...options.headers, ...EN } });
    expect(english.status).toBe(chinese.status);
    expect(english.body.error).toBe(chinese.body.error);
    expect(chinese.body.msg).toMatch(CJK);
    expect(english.body.msg).not.toMatch(CJK);
    return { chinese: chinese.body.msg, english: english.body.msg, status: english.status };
  }

  it('an unknown route, bad JSON, a validation error naming its field', async () => {
    const unknown = await both('GET', 'no-such-call');
    expect(unknown).toMatchObject({ status: 404, chinese: '接口不存在：GET /api/no-such-call' });
    expect(unknown.english).toBe('No such API call: GET /api/no-such-call');

    const json = await both('POST', 'login', {
      body: '{"username": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(json).toEqual({
      status: 400,
      chinese: '请求体不是有效的 JSON，请检查格式',
      english: 'The request body is not valid JSON; check its format',
    });

    const missing = await both('POST', 'login', { body: { username: 'someone' } });
    expect(missing.chinese).toBe('缺少参数：密码（password）');
    expect(missing.english).toBe('Missing parameter: Password (password)');

    const short = await both('POST', 'user/changePassword', {
      token: admin,
      body: { oldPassword: 'admin-password-1', newPassword: 'x' },
    });
    expect(short.status).toBe(400);
    expect(short.english).toMatch(/^Parameter .*\(newPassword\)/);
  });

  it('a wrong password, a domain of someone else, a pending domain not yet verified', async () => {
    const wrong = await both('POST', 'login', { body: { username: 'admin', password: 'not-the-password' } });
    expect(wrong).toEqual({
      status: 400,
      chinese: '用户名或密码错误',
      english: 'Wrong username or password',
    });

    const owner = await createUser(server, uniqueUsername('owner'));
    const other = await createUser(server, uniqueUsername('other'));
    const domain = await addDomain(server, owner.token, 'owned.youju.test');
    const foreign = await both('POST', 'user/checkDNS', { token: other.token, body: { id: domain.id } });
    expect(foreign.status).toBe(404);
    expect(foreign.english).toBe(toEnglish(foreign.chinese));

    const pending = await addDomain(server, owner.token, 'pending.youju.test', { pending: true });
    const verify = await both('POST', 'user/verifyDomain', { token: owner.token, body: { id: pending.id } });
    expect(verify.chinese).toMatch(/^未找到 _youju\.pending\.youju\.test 的 TXT 记录，应为“/);
    expect(verify.english).toMatch(
      /^No TXT record found for _youju\.pending\.youju\.test; it must be “[^”]+”\. Add this record/,
    );
  });

  it('a throttle (429): the account is locked after failed logins', async () => {
    const username = uniqueUsername('locked');
    const user = await createUser(server, username);
    // Five failures per account are allowed (the default); the sixth locks it.
    let status = 0;
    for (let attempt = 0; attempt < 6; attempt++) {
      status = (await call('POST', 'login', { body: { username, password: 'wrong-password-1' } })).status;
    }
    expect(status).toBe(429);
    const locked = await both('POST', 'login', { body: { username, password: user.password } });
    expect(locked.status).toBe(429);
    expect(locked.chinese).toMatch(/^该账号在当前网络登录失败次数过多，已临时锁定，请 \d+ 分钟后再试$/);
    expect(locked.english).toMatch(
      /^Too many failed logins to this account from your network: .* in \d+ minutes$/,
    );
  });

  it('follows the first language spoken: en-US,en;q=0.9 English; zh-CN and garbage Chinese', async () => {
    const msg = async (language: string) =>
      (await call('GET', 'no-such-call', { headers: { 'accept-language': language } })).body.msg;
    expect(await msg('en-US,en;q=0.9')).toBe('No such API call: GET /api/no-such-call');
    expect(await msg('zh-CN')).toBe('接口不存在：GET /api/no-such-call');
    expect(await msg(';;q=x,,=,klingon')).toBe('接口不存在：GET /api/no-such-call');
    expect(await msg('\u00ff\u00fe')).toBe('接口不存在：GET /api/no-such-call');
    expect(requestLanguage(';;q=x,,=')).toBe('zh-CN');
  });

  it('a DNS check: each record’s advice and the MAIL_HOSTNAME warning in English', async () => {
    const { id } = await addDomain(server, admin, 'english.youju.test');
    const chinese = await server.api('POST', 'user/checkDNS', { token: admin, body: { id } });
    const english = await server.api('POST', 'user/checkDNS', { token: admin, body: { id }, headers: EN });
    expectOk(chinese.body);
    expectOk(english.body);
    const advice = english.body.data.records.map((record) => record.detail ?? '');
    expect(advice.length).toBeGreaterThanOrEqual(4);
    for (const text of advice) expect(text).not.toMatch(CJK);
    expect(advice[0]).toMatch(
      /^No MX record found\. To fix it: in the DNS of the domain english\.youju\.test/,
    );
    expect(english.body.data.hostnameWarning).toBe(
      'MAIL_HOSTNAME (elsewhere.youju.test) resolves to 192.0.2.77, which is not this server’s address. Point its A/AAAA records to this server; behind NAT, set the public address in the environment variable PUBLIC_IP',
    );
    // Without the header the texts stay as they were, in Chinese.
    expectOk(chinese.body);
    expect(chinese.body.data.records[0]?.detail).toMatch(/^没有找到 MX 记录。请在域名 english\.youju\.test/);
    expect(chinese.body.data.hostnameWarning).toMatch(
      /^MAIL_HOSTNAME（elsewhere\.youju\.test）解析到 192\.0\.2\.77/,
    );
  });
  it('data texts: a session’s device, a failed login’s reason, the pay methods', async () => {
    const chrome =
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
    const username = uniqueUsername('device');
    const user = await createUser(server, username);
    await call('POST', 'login', { body: { username, password: 'wrong-password-1' } });
    const login = await callApi(server.baseUrl, 'POST', 'login', {
      body: { username, password: user.password },
      headers: { 'user-agent': chrome },
    });
    const token = (login.body as { data: { token: string } }).data.token;
    const sessions = await server.api('GET', 'user/getSessions', { token, headers: EN });
    expectOk(sessions.body);
    expect(sessions.body.data.map((session) => session.device)).toContain('Windows PC · Chrome 120');
    const chineseSessions = await server.api('GET', 'user/getSessions', { token });
    expectOk(chineseSessions.body);
    expect(chineseSessions.body.data.map((session) => session.device)).toContain(
      'Windows 电脑 · Chrome 浏览器 120',
    );

    const history = (await callApi(server.baseUrl, 'GET', 'user/getLoginHistory', { token, headers: EN }))
      .body as { data: { list: { reason: string; success: boolean }[] } };
    expect(history.data.list.filter((item) => !item.success).map((item) => item.reason)).toContain(
      'Wrong password',
    );

    const methods = (await callApi(server.baseUrl, 'GET', 'getPayMethods', { headers: EN })).body as {
      data: { id: string; name: string }[];
    };
    for (const method of methods.data) expect(method.name).not.toMatch(CJK);
  });
});
