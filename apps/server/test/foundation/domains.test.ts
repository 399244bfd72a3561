import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk } from '../support/api.js';
import { addDomain, createUser } from '../support/fixtures.js';
import { startTestServerAsAdmin, type TestServer } from '../support/test-server.js';

let server: TestServer;
let admin: string;
beforeAll(async () => {
  ({ server, admin } = await startTestServerAsAdmin());
});
afterAll(async () => server.close());

describe('domains', () => {
  it('normalises names: case, trailing dot, IDN to punycode', async () => {
    const plain = await server.api('POST', 'user/addDomain', {
      token: admin,
      body: { name: '  Mail.Example.COM. ' },
    });
    expect(plain.body.data).toMatchObject({
      name: 'mail.example.com',
      publicRegistration: false,
      forSale: false,
    });
    const idn = await server.api('POST', 'user/addDomain', { token: admin, body: { name: '邮局.中国' } });
    expect(idn.body.data).toMatchObject({ name: 'xn--dgtz33j.xn--fiqs8s', displayName: '邮局.中国' });
  });

  it('refuses invalid names and duplicates across users', async () => {
    for (const name of [
      'localhost',
      'no spaces.com',
      'a@b.com',
      '-bad.com',
      `${'x'.repeat(64)}.com`,
      '1.2.3.4',
      '',
    ]) {
      const { status, body } = await server.api('POST', 'user/addDomain', { token: admin, body: { name } });
      expect(status, name).toBe(400);
      expect(body.msg, name).toMatch(/域名/);
    }
    const user = await createUser(server, 'dup-tester');
    const dup = await server.api('POST', 'user/addDomain', {
      token: user.token,
      body: { name: 'MAIL.example.com' },
    });
    expect(dup.status).toBe(409);
  });

  it('keeps each user to their own domains', async () => {
    const alice = await createUser(server, 'alice');
    const bob = await createUser(server, 'bob');
    const aliceDomain = await addDomain(server, alice.token, 'alice.youju.test');
    await addDomain(server, bob.token, 'bob.youju.test');

    const aliceList = await server.api('GET', 'user/getDomains', { token: alice.token });
    expect(aliceList.body.data?.map((d: { name: string }) => d.name)).toEqual(['alice.youju.test']);
    const adminList = await server.api('GET', 'user/getDomains', { token: admin });
    expect(adminList.body.data?.map((d: { name: string }) => d.name)).toEqual(
      expect.arrayContaining(['alice.youju.test', 'bob.youju.test']),
    );

    const steal = await server.api('POST', 'user/editDomain', {
      token: bob.token,
      body: { id: aliceDomain.id, publicRegistration: true },
    });
    expect(steal.status).toBe(404);
    const remove = await server.api('POST', 'user/delDomain', {
      token: bob.token,
      body: { id: aliceDomain.id },
    });
    expect(remove.status).toBe(404);

    const edit = await server.api('POST', 'user/editDomain', {
      token: alice.token,
      body: {
        id: aliceDomain.id,
        publicRegistration: true,
        forSale: true,
        price: 990,
        confirmFreeAndSale: true,
      },
    });
    expect(edit.body.data).toMatchObject({ publicRegistration: true, forSale: true, price: 990 });
    const forSale = await server.api('GET', 'getAdminDomains');
    // the store says the domain is also free to register
    expect(forSale.body.data).toContainEqual({
      id: aliceDomain.id,
      name: 'alice.youju.test',
      price: 990,
      stock: null,
      freeRegistration: true,
    });
  });

  it('enforces the per-user domain limit', async () => {
    const limited = await createUser(server, 'limited', { maxDomains: 1 });
    await addDomain(server, limited.token, 'one.youju.test');
    const second = await server.api('POST', 'user/addDomain', {
      token: limited.token,
      body: { name: 'two.youju.test' },
    });
    expect(second.status).toBe(403);
    expect(second.body.msg).toMatch(/上限/);
  });

  it('refuses to delete a domain with mailboxes unless forced, then removes them too', async () => {
    const domain = await addDomain(server, admin, 'busy.youju.test', { publicRegistration: true });
    const reg = await server.api('POST', 'regEmail', {
      body: { domainId: domain.id, password: 'mailbox-pass' },
    });
    expectOk(reg.body);
    const refused = await server.api('POST', 'user/delDomain', { token: admin, body: { id: domain.id } });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toMatch(/强制删除/);
    const forced = await server.api('POST', 'user/delDomain', {
      token: admin,
      body: { id: domain.id, force: true },
    });
    expectOk(forced.body);
    const left = await server.app.database.db
      .selectFrom('mailboxes')
      .select('id')
      .where('domain_id', '=', domain.id)
      .execute();
    expect(left).toHaveLength(0);
    // the mailbox's session ended with it
    expect((await server.api('GET', 'user/logout', { token: reg.body.data.token })).body.error).toBe(302);
  });

  it('validates price and types', async () => {
    const bad = await server.api('POST', 'user/addDomain', {
      token: admin,
      body: { name: 'p.youju.test', price: -1 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('价格');
    const wrongType = await server.api('POST', 'user/addDomain', {
      token: admin,
      body: { name: 'p.youju.test', forSale: 'yes' },
    });
    expect(wrongType.status).toBe(400);
  });
});
