import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFailure, expectOk } from '../support/api.js';
import { createUser } from '../support/fixtures.js';
import { smtpGreeting } from '../support/smtp-client.js';
import { startTestServerAsAdmin, type TestServer } from '../support/test-server.js';
import { sleep } from '../support/wait-for.js';

let server: TestServer;
let admin: string;

beforeAll(async () => {
  ({ server, admin } = await startTestServerAsAdmin());
});
afterAll(async () => server.close());

const waf = <C extends string>(call: C) => server.api('GET', `waf/${call}` as `waf/${C}`, { token: admin });
const add = (query: string) => waf(`addBlacklistIP?${query}`);
const remove = (ip: string) => waf(`removeBlacklistIP?ip=${encodeURIComponent(ip)}`);
const listed = async () => (await waf('getBlacklist')).body.data as { ip: string; [key: string]: unknown }[];

/** What 127.0.0.2 gets on HTTP and SMTP. */
async function seenFrom(address: string): Promise<{ http: number; smtp: number }> {
  const http = (await server.api('GET', 'getVar', { localAddress: address })).status;
  return { http, smtp: await smtpGreeting(server.smtpPort, address) };
}

describe('IP blacklist', () => {
  it('refuses an added address on HTTP (403) and SMTP (554) at once, and lets it back after removal', async () => {
    expect(await seenFrom('127.0.0.2')).toEqual({ http: 200, smtp: 220 });
    const added = await add('ip=127.0.0.2&reason=%E6%B5%8B%E8%AF%95');
    expect(added.body).toMatchObject({ error: 0, data: { ip: '127.0.0.2' } });
    expect(await seenFrom('127.0.0.2')).toEqual({ http: 403, smtp: 554 });
    const refused = await server.api('GET', 'getVar', { localAddress: '127.0.0.2' });
    expect(refused.body).toMatchObject({ error: 403 });
    expect(refused.body.msg).toMatch(/黑名单/);
    // Everyone else is unaffected, the static client and any route included.
    expect((await server.api('GET', 'getVar')).status).toBe(200);

    const entry = (await listed()).find((item) => item.ip === '127.0.0.2');
    expect(entry).toMatchObject({ reason: '测试', source: 'manual', active: true, expiresAt: null });

    expect((await remove('127.0.0.2')).body.error).toBe(0);
    expect(await seenFrom('127.0.0.2')).toEqual({ http: 200, smtp: 220 });
    const again = await remove('127.0.0.2');
    expect(again.status).toBe(404);
  });

  it('blocks a CIDR range, normalised, for every address inside it', async () => {
    const added = await add(`ip=${encodeURIComponent('127.0.0.5/30')}`);
    expect(added.body.data?.ip).toBe('127.0.0.4/30');
    expect((await server.api('GET', 'getVar', { localAddress: '127.0.0.6' })).status).toBe(403);
    expect(await smtpGreeting(server.smtpPort, '127.0.0.7')).toBe(554);
    expect((await server.api('GET', 'getVar', { localAddress: '127.0.0.8' })).status).toBe(200);
    // Removal accepts any spelling of the same range.
    expect((await remove('127.0.0.6/30')).body.error).toBe(0);
    expect((await server.api('GET', 'getVar', { localAddress: '127.0.0.6' })).status).toBe(200);
  });

  it('handles IPv6 addresses and ranges (::1 included)', async () => {
    const single = await add(`ip=${encodeURIComponent('0:0:0:0:0:0:0:1')}`);
    expect(single.body.data?.ip).toBe('::1');
    const fromIpv6 = await server.app.inject({ method: 'GET', url: '/api/getVar', remoteAddress: '::1' });
    expect(fromIpv6.statusCode).toBe(403);
    expect(fromIpv6.json<ApiFailure>().msg).toMatch(/黑名单/);
    const neighbour = await server.app.inject({ method: 'GET', url: '/api/getVar', remoteAddress: '::2' });
    expect(neighbour.statusCode).toBe(200);
    await remove('::1');
    expect(
      (await server.app.inject({ method: 'GET', url: '/api/getVar', remoteAddress: '::1' })).statusCode,
    ).toBe(200);

    const range = await add(`ip=${encodeURIComponent('2001:DB8:0:0:1::/32')}`);
    expect(range.body.data?.ip).toBe('2001:db8::/32');
    for (const [address, status] of [
      ['2001:db8:ffff::9', 403],
      ['2001:db9::1', 200],
    ] as const) {
      const answer = await server.app.inject({ method: 'GET', url: '/api/getVar', remoteAddress: address });
      expect(answer.statusCode, address).toBe(status);
    }
    // An IPv4-mapped IPv6 peer is the IPv4 address it carries.
    await add('ip=192.0.2.10');
    const mapped = await server.app.inject({
      method: 'GET',
      url: '/api/getVar',
      remoteAddress: '::ffff:192.0.2.10',
    });
    expect(mapped.statusCode).toBe(403);
    await remove('192.0.2.10');
    await remove('2001:db8::/32');
  });

  it('refuses bad input with a Chinese message and stores nothing', async () => {
    const before = (await listed()).length;
    for (const bad of [
      'abc',
      '1.2.3',
      '300.1.1.1',
      '1.2.3.4/33',
      '2001:db8::/129',
      '1.2.3.4/-1',
      '::ffff:zz',
      'a'.repeat(70),
    ]) {
      const answer = await add(`ip=${encodeURIComponent(bad)}`);
      expect(answer.status, bad).toBe(400);
      expect(answer.body.msg, bad).toMatch(/IP 地址/);
    }
    expect((await waf('addBlacklistIP')).status).toBe(400);
    const past = await add(`ip=192.0.2.1&expiresAt=${encodeURIComponent('2000-01-01T00:00:00Z')}`);
    expect(past.status).toBe(400);
    expect(past.body.msg).toMatch(/到期时间/);
    const nonsense = await add('ip=192.0.2.1&expiresAt=tomorrow');
    expect(nonsense.status).toBe(400);
    expect((await remove('nonsense')).status).toBe(400);
    expect((await listed()).length).toBe(before);
  });

  it('lets an entry expire on its own', async () => {
    const expiresAt = Date.now() + 1200;
    expect((await add(`ip=127.0.0.9&expiresAt=${expiresAt}`)).body.error).toBe(0);
    expect((await server.api('GET', 'getVar', { localAddress: '127.0.0.9' })).status).toBe(403);
    const entry = (await listed()).find((item) => item.ip === '127.0.0.9');
    expect(Date.parse(String(entry?.expiresAt))).toBe(expiresAt);
    // The entry must lapse by itself: the passing time is the test.
    await sleep(1500);
    expect((await server.api('GET', 'getVar', { localAddress: '127.0.0.9' })).status).toBe(200);
    expect((await listed()).find((item) => item.ip === '127.0.0.9')).toMatchObject({ active: false });
    await remove('127.0.0.9');
  });

  it("protects the administrator's own address unless confirmed", async () => {
    for (const entry of ['127.0.0.1', '127.0.0.0/8']) {
      const answer = await add(`ip=${encodeURIComponent(entry)}`);
      expect(answer.status, entry).toBe(409);
      expect(answer.body.msg).toMatch(/包含您当前的 IP 地址（127\.0\.0\.1）.*confirm=1/);
    }
    expect((await listed()).some((item) => item.ip === '127.0.0.1')).toBe(false);

    // Confirmed: the ban applies, to the administrator too.
    const confirmed = await add('ip=127.0.0.1&confirm=1');
    expectOk(confirmed.body);
    expect((await server.api('GET', 'getVar')).status).toBe(403);
    await server.app.services.blacklist.remove('127.0.0.1');
    expect((await server.api('GET', 'getVar')).status).toBe(200);
  });

  it('is for administrators only', async () => {
    const user = await createUser(server, 'wafuser');
    for (const call of ['getBlacklist', 'addBlacklistIP?ip=192.0.2.50', 'removeBlacklistIP?ip=192.0.2.50']) {
      const answer = await server.api('GET', `waf/${call}`, { token: user.token });
      expect(answer.status, call).toBe(403);
    }
    expect((await server.api('GET', 'waf/getBlacklist')).status).toBe(401);
  });

  it('takes automatic bans from SMTP abuse through the firewall service', async () => {
    await server.app.services.firewall.ban('127.0.0.10', 'SMTP 滥用：连续投递到不存在的地址', 10, 'smtp');
    // automatic: temporary (421), so a shared address's legitimate mail is retried, not bounced
    expect(await smtpGreeting(server.smtpPort, '127.0.0.10')).toBe(421);
    const entry = (await listed()).find((item) => item.ip === '127.0.0.10');
    expect(entry).toMatchObject({ source: 'smtp', active: true });
    // A shorter automatic ban never cuts short a permanent one set by hand.
    await add('ip=127.0.0.11');
    await server.app.services.firewall.ban('127.0.0.11', '自动', 1, 'smtp');
    expect((await listed()).find((item) => item.ip === '127.0.0.11')).toMatchObject({
      source: 'manual',
      expiresAt: null,
    });
    await remove('127.0.0.10');
    await remove('127.0.0.11');
  });
});
