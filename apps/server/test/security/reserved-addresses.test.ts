import { RESERVED_LOCAL_PARTS } from '@youju/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk } from '../support/api.js';
import { addDomain, createUser } from '../support/fixtures.js';
import { startTestServerAsAdmin, type TestServer } from '../support/test-server.js';

/**
 * Certificate hijack through role addresses: whoever reads admin@ or postmaster@ of a domain passes
 * a certificate authority's e-mail validation for it. Visitors, cards and the store never get them;
 * the domain's owner does.
 */
describe('reserved role addresses', () => {
  let server: TestServer;
  let admin: string;
  let owner: { id: number; token: string };
  let domain: { id: number; name: string };
  let stranger: { id: number; token: string };

  beforeAll(async () => {
    ({ server, admin } = await startTestServerAsAdmin());
    owner = await createUser(server, 'role-owner');
    stranger = await createUser(server, 'role-stranger');
    domain = await addDomain(server, owner.token, 'roles.test', {
      publicRegistration: true,
      forSale: true,
      price: 100,
      confirmFreeAndSale: true,
    });
  });
  afterAll(async () => server?.close());

  it('never lets a visitor register one, in any case', async () => {
    for (const localPart of [...RESERVED_LOCAL_PARTS, 'PostMaster', 'Admin']) {
      const { status, body } = await server.api('POST', 'regEmail', {
        body: { domainId: domain.id, localPart, password: 'visitor-pass-1' },
        headers: { 'x-forwarded-for': '198.51.100.7' },
      });
      expect(status, localPart).toBe(403);
      expect(body.msg, localPart).toMatch(/保留/);
    }
  });

  it('never gives one through a card or the store', async () => {
    const cards = await server.api('POST', 'user/createCard', {
      token: owner.token,
      body: { count: 1, domainId: domain.id, validDays: 30 },
    });
    expectOk(cards.body);
    const redeem = await server.api('POST', 'verCard', {
      body: { code: cards.body.data.codes[0], localPart: 'hostmaster', password: 'card-pass-1' },
    });
    expect(redeem.status).toBe(403);
    // the card is still good for an ordinary name
    const ordinary = await server.api('POST', 'verCard', {
      body: { code: cards.body.data.codes[0], localPart: 'zhangsan', password: 'card-pass-1' },
    });
    expectOk(ordinary.body);
    const order = await server.api('POST', 'buyEmail', {
      body: {
        domainId: domain.id,
        localPart: 'webmaster',
        password: 'buyer-pass-1',
        phone: '13800000000',
        payMethod: 'manual',
      },
    });
    expect(order.status).toBe(403);
  });

  it('honours the operator’s own list', async () => {
    await server.api('POST', 'user/updateSetting', {
      token: admin,
      body: { system: { reservedLocalParts: ['billing'] } },
    });
    const { status } = await server.api('POST', 'regEmail', {
      body: { domainId: domain.id, localPart: 'Billing', password: 'visitor-pass-1' },
    });
    expect(status).toBe(403);
  });

  it('lets the domain’s owner create them, and nobody else', async () => {
    const address = await server.api('POST', 'user/createEmail', {
      token: owner.token,
      body: { domainId: domain.id, localPart: 'admin' },
    });
    expectOk(address.body);
    const account = await server.api('POST', 'user/createEmailAccount', {
      token: owner.token,
      body: { domainId: domain.id, localPart: 'postmaster', password: 'owner-pass-1' },
    });
    expectOk(account.body);
    const foreign = await server.api('POST', 'user/createEmail', {
      token: stranger.token,
      body: { domainId: domain.id, localPart: 'abuse' },
    });
    expect(foreign.status).toBe(404);
  });

  it('never hands one out at random', async () => {
    for (let i = 0; i < 20; i++) {
      const { body } = await server.api('POST', 'regEmail', {
        body: { domainId: domain.id },
        headers: { 'x-forwarded-for': `198.51.100.${100 + i}` },
      });
      if (body.error !== 0) continue;
      const localPart = String(body.data.email).split('@')[0];
      expect(RESERVED_LOCAL_PARTS).not.toContain(localPart);
    }
  });
});
