import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDomain } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** Mass sign-up: regEmail, buyEmail and verCard share one per-source hourly count. */
describe('sign-up limits per source address', () => {
  let server: TestServer;
  let domain: { id: number; name: string };
  beforeAll(async () => {
    server = await startTestServer({ env: { TRUSTED_PROXIES: '127.0.0.1' } });
    const admin = await server.adminToken();
    domain = await addDomain(server, admin, 'signup.test', {
      publicRegistration: true,
      forSale: true,
      price: 100,
      confirmFreeAndSale: true,
    });
  });
  afterAll(async () => server?.close());

  const register = (source: string) =>
    server.api('POST', 'regEmail', { body: { domainId: domain.id }, headers: { 'x-forwarded-for': source } });

  it('admits exactly registerPerIpPerHour of a parallel burst from one source', async () => {
    const answers = await Promise.all(Array.from({ length: 15 }, () => register('203.0.113.1')));
    expect(answers.filter((answer) => answer.body.error === 0)).toHaveLength(10);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(5);
    expect(refused[0]?.body.msg).toMatch(/每小时最多注册或购买 10 个邮箱/);
    // the store counts against the same hour
    const order = await server.api('POST', 'buyEmail', {
      body: {
        domainId: domain.id,
        localPart: 'buyer',
        password: 'buyer-pass-1',
        phone: '13800000001',
        payMethod: 'manual',
      },
      headers: { 'x-forwarded-for': '203.0.113.1' },
    });
    expect(order.status).toBe(429);
  });

  it('leaves other sources alone, and does not count refused attempts', async () => {
    expect((await register('203.0.113.2')).body.error).toBe(0);
    const taken = await server.api('POST', 'regEmail', {
      body: { domainId: domain.id, localPart: 'admin', password: 'x-pass-123' },
      headers: { 'x-forwarded-for': '203.0.113.3' },
    });
    expect(taken.status).toBe(403);
    const answers = await Promise.all(Array.from({ length: 10 }, () => register('203.0.113.3')));
    expect(answers.every((answer) => answer.body.error === 0)).toBe(true);
  });

  it('follows the setting', async () => {
    const admin = await server.adminToken();
    await server.api('POST', 'user/updateSetting', {
      token: admin,
      body: { system: { registerPerIpPerHour: 2 } },
    });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await register('203.0.113.4'));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429]);
  });
});
