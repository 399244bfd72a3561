import { DEFAULT_SYSTEM_SETTINGS } from '@youju/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk } from '../support/api.js';
import { createAddress, createUser, createUserWithDomain, type MailWorld } from '../support/fixtures.js';
import { startTestServerAsAdmin, type TestServer } from '../support/test-server.js';

let server: TestServer;
let admin: string;
let world: MailWorld;

beforeAll(async () => {
  ({ server, admin } = await startTestServerAsAdmin());
  world = await createUserWithDomain(server, 'settings');
});
afterAll(async () => server.close());

const update = (token: string, body: unknown) => server.api('POST', 'user/updateSetting', { token, body });
const read = async (token: string) => (await server.api('GET', 'user/getSetting', { token })).body;

describe('getSetting', () => {
  it('gives administrators the system, payment and personal parts', async () => {
    const body = await read(admin);
    expectOk(body);
    expect(body.data.system).toMatchObject({ ...DEFAULT_SYSTEM_SETTINGS, relayPasswordSet: false });
    expect(body.data.payment).toMatchObject({ epayKeySet: false, epayKeyMasked: '' });
    expect(body.data.personal).toEqual({ displayName: '', signature: '' });
  });

  it('gives users and mailbox sessions their personal settings only', async () => {
    const user = await createUser(server, 'plainsettings');
    const asUser = await read(user.token);
    expect(asUser.data).toEqual({ personal: { displayName: '', signature: '' } });

    const { address } = await createAddress(server, world);
    const mailbox = await server.api('POST', 'regEmail', {
      body: { domainId: world.domainId, localPart: 'personal1', password: 'mailbox-pw-1' },
    });
    expectOk(mailbox.body);
    const mailboxToken = mailbox.body.data.token;
    expect((await read(mailboxToken)).data).toEqual({ personal: { displayName: '', signature: '' } });
    const changed = await update(mailboxToken, { personal: { displayName: '小邮', signature: '-- \n小邮' } });
    expect(changed.body.data?.personal).toEqual({ displayName: '小邮', signature: '-- \n小邮' });
    expect(address).toContain('@');

    const refused = await update(user.token, { system: { siteName: '偷改' } });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toMatch(/管理员/);
    const refusedMailbox = await update(mailboxToken, { payment: { epayEnabled: false } });
    expect(refusedMailbox.status).toBe(403);
    expect((await read(admin)).data?.system?.siteName).toBe(DEFAULT_SYSTEM_SETTINGS.siteName);
  });
});

describe('updateSetting', () => {
  it('applies at once, getVar included', async () => {
    const changed = await update(admin, {
      system: {
        siteName: '测试邮局',
        announcement: '系统维护通知',
        registrationOpen: false,
        retentionDays: 7,
      },
    });
    expectOk(changed.body);
    expect(changed.body.data.system).toMatchObject({ siteName: '测试邮局', retentionDays: 7 });
    const variables = await server.api('GET', 'getVar');
    expect(variables.body.settings).toMatchObject({
      siteName: '测试邮局',
      announcement: '系统维护通知',
      registrationOpen: false,
      retentionDays: 7,
    });
    const refusedRegistration = await server.api('POST', 'regEmail', { body: { domainId: world.domainId } });
    expect(refusedRegistration.status).toBe(403);
    await update(admin, {
      system: { registrationOpen: true, siteName: '邮局', announcement: '', retentionDays: 30 },
    });
    expect((await server.api('GET', 'getVar')).body.settings.registrationOpen).toBe(true);
  });

  it('validates every system field with a Chinese message naming it, and changes nothing then', async () => {
    const invalid: [string, unknown, RegExp][] = [
      ['siteName', '', /站点名称/],
      ['siteName', '   ', /站点名称/],
      ['siteName', 'x'.repeat(61), /站点名称/],
      ['announcement', 'x'.repeat(2001), /公告/],
      ['registrationOpen', 'yes', /开放注册/],
      ['storeOpen', 1, /开放商店/],
      ['defaultDomainId', 0, /默认域名/],
      ['defaultDomainId', 999_999, /默认域名.*不存在/],
      ['retentionDays', 0, /邮件保留天数/],
      ['retentionDays', 1.5, /邮件保留天数/],
      ['maxMessageBytes', 10, /单封邮件大小上限/],
      ['temporaryMailboxHours', 0, /临时邮箱有效时长/],
      ['defaultQuotaBytes', -1, /默认邮箱容量/],
      ['relayUrl', 'http://relay.example.com', /smtp:\/\/ 或 smtps:\/\//],
      ['relayUrl', 'not a url', /外发中继地址/],
      ['relayUrl', 'smtp://relay.example.com/path', /外发中继地址/],
      ['sendPerHour', -1, /每小时发信上限/],
      ['sendPerDay', 'many', /每天发信上限/],
      ['loginMaxFailuresPerIp', 0, /单个 IP 登录失败上限/],
      ['loginMaxFailuresPerAccount', 0, /单个账号登录失败上限/],
      ['loginWindowMinutes', 0, /登录失败统计时长/],
      ['loginBanMinutes', -5, /自动封禁时长/],
    ];
    for (const [field, value, message] of invalid) {
      const answer = await update(admin, { system: { siteName: '不该保存', [field]: value } });
      expect(answer.status, `${field}=${JSON.stringify(value)}`).toBe(400);
      expect(answer.body.msg, field).toMatch(message);
    }
    const dayBelowHour = await update(admin, { system: { sendPerHour: 50, sendPerDay: 10 } });
    expect(dayBelowHour.status).toBe(400);
    expect(dayBelowHour.body.msg).toMatch(/每天发信上限.*不能小于/);
    expect((await read(admin)).data?.system?.siteName).toBe('邮局');

    const valid = await update(admin, {
      system: {
        defaultDomainId: world.domainId,
        maxMessageBytes: 10 * 1024 * 1024,
        temporaryMailboxHours: 48,
        defaultQuotaBytes: 0,
        sendPerHour: 10,
        sendPerDay: 100,
        storeOpen: false,
      },
    });
    expectOk(valid.body);
    expect(valid.body.data.system).toMatchObject({ defaultDomainId: world.domainId, storeOpen: false });
    expect((await server.api('GET', 'getVar')).body.settings.maxMessageBytes).toBe(10 * 1024 * 1024);
    await update(admin, {
      system: { storeOpen: true, maxMessageBytes: DEFAULT_SYSTEM_SETTINGS.maxMessageBytes },
    });
  });

  it('validates payment and personal fields', async () => {
    for (const [body, message] of [
      [{ payment: { epayGatewayUrl: 'ftp://pay.example.com' } }, /易支付网关地址/],
      [{ payment: { orderTimeoutMinutes: 1 } }, /订单有效分钟数/],
      [{ payment: { epayTypes: ['ALIPAY!'] } }, /支付方式/],
      [{ personal: { displayName: 'x'.repeat(61) } }, /显示名称/],
      [{ personal: { signature: 'x'.repeat(2001) } }, /邮件签名/],
    ] as const) {
      const answer = await update(admin, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.msg).toMatch(message);
    }
  });

  it('never returns a secret in clear; the mask sent back keeps it', async () => {
    const relay = 'smtp://mailer:relay-Secret-42@relay.example.com:587';
    const epayKey = 'epay-merchant-key-ABCDEF99';
    const saved = await update(admin, {
      system: { relayUrl: relay },
      payment: { epayGatewayUrl: 'https://pay.example.com', epayMerchantId: '1001', epayKey },
    });
    expectOk(saved.body);
    const text = JSON.stringify(saved.body);
    expect(text).not.toContain('relay-Secret-42');
    expect(text).not.toContain(epayKey);
    expect(saved.body.data.system?.relayUrl).toBe('smtp://mailer:******@relay.example.com:587');
    expect(saved.body.data.system?.relayPasswordSet).toBe(true);
    expect(saved.body.data.payment).toMatchObject({ epayKeySet: true, epayKeyMasked: '******' });
    const readBack = JSON.stringify(await read(admin));
    expect(readBack).not.toContain('relay-Secret-42');
    expect(readBack).not.toContain(epayKey);

    // The form sends back what it was shown: the secrets stay as they were.
    const again = await update(admin, {
      system: { relayUrl: saved.body.data.system?.relayUrl, siteName: '邮局' },
      payment: { epayKey: saved.body.data.payment?.epayKeyMasked, epayMerchantId: '1002' },
    });
    expectOk(again.body);
    expect((await server.app.services.settings.get()).relayUrl).toBe(relay);
    expect((await server.app.services.paySettings.read()).epayKey).toBe(epayKey);
    expect((await server.app.services.paySettings.read()).epayMerchantId).toBe('1002');

    // A new host with the mask keeps the password; a new password replaces it; empty removes the relay.
    await update(admin, { system: { relayUrl: 'smtps://mailer:******@relay2.example.com:465' } });
    expect((await server.app.services.settings.get()).relayUrl).toBe(
      'smtps://mailer:relay-Secret-42@relay2.example.com:465',
    );
    await update(admin, { system: { relayUrl: 'smtp://mailer:other-pass-77@relay2.example.com:25' } });
    expect((await server.app.services.settings.get()).relayUrl).toBe(
      'smtp://mailer:other-pass-77@relay2.example.com:25',
    );
    const cleared = await update(admin, { system: { relayUrl: '' } });
    expect(cleared.body.data?.system).toMatchObject({ relayUrl: '', relayPasswordSet: false });
  });

  it('applies the login throttling settings without a restart', async () => {
    const user = await createUser(server, 'throttled');
    await update(admin, { system: { loginMaxFailuresPerAccount: 2 } });
    try {
      const attempts = [];
      for (let index = 0; index < 3; index++) {
        attempts.push(
          await server.api('POST', 'login', { body: { username: 'throttled', password: 'wrong-1' } }),
        );
      }
      expect(attempts.map((attempt) => attempt.status)).toEqual([400, 400, 429]);
      expect(attempts[2]?.body.msg).toMatch(/失败次数过多/);
      expect(user.id).toBeGreaterThan(0);
    } finally {
      await update(admin, { system: { loginMaxFailuresPerAccount: 5 } });
    }
  });
});
