import { createPublicKey, createSign, createVerify, sign, verify } from 'node:crypto';
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

function month(): string {
  const now = new Date();
  return `${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
}

describe('DKIM keys', () => {
  it('generates an RSA 2048 key on add and returns the exact TXT record', async () => {
    const domain = await addDomain(server, admin, 'dkim.youju.test');
    const selector = `yj${month()}`;
    const list = await server.api('GET', 'user/getDomains', { token: admin });
    expect(list.body.data?.find((d) => d.id === domain.id)?.dkimSelector).toBe(selector);

    const { body } = await server.api('GET', `user/getDkim?id=${domain.id}`, { token: admin });
    expectOk(body);
    expect(body.data.selector).toBe(selector);
    const publicKey = createPublicKey(body.data.publicKey);
    expect(publicKey.asymmetricKeyType).toBe('rsa');
    expect(publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    const p = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    expect(body.data.record).toEqual({
      name: `${selector}._domainkey.dkim.youju.test`,
      type: 'TXT',
      value: `v=DKIM1; k=rsa; p=${p}`,
    });
    expect(JSON.stringify(body)).not.toMatch(/PRIVATE KEY/);
  });

  it('signs with the key signingKeysFor returns, which the published key verifies', async () => {
    const domain = await addDomain(server, admin, 'signer.youju.test');
    const keys = await server.app.services.dkim.signingKeysFor('Signer.Youju.Test.');
    expect(keys).toHaveLength(1);
    const signing = keys[0];
    expect(signing).toMatchObject({ domain: 'signer.youju.test', algorithm: 'rsa' });
    const { body } = await server.api('GET', `user/getDkim?id=${domain.id}`, { token: admin });
    expectOk(body);
    expect(signing?.selector).toBe(body.data.selector);
    const signature = createSign('sha256')
      .update('header hash')
      .sign(signing?.privateKey ?? '');
    expect(createVerify('sha256').update('header hash').verify(body.data.publicKey, signature)).toBe(true);
    expect(await server.app.services.dkim.signingKeysFor('unknown.youju.test')).toEqual([]);
  });

  it('rotates to a new selector, keeps the old key published until removed', async () => {
    const domain = await addDomain(server, admin, 'rotate.youju.test');
    const before = await server.api('GET', `user/getDkim?id=${domain.id}`, { token: admin });
    expectOk(before.body);
    const oldSelector = before.body.data.selector;

    const rotated = await server.api('POST', 'user/rotateDkim', { token: admin, body: { id: domain.id } });
    expectOk(rotated.body);
    const newSelector = rotated.body.data.selector;
    expect(newSelector).not.toBe(oldSelector);
    expect(newSelector).toMatch(new RegExp(`^yj${month()}-2$`));
    expect(rotated.body.data.publicKey).not.toBe(before.body.data.publicKey);
    expect(rotated.body.data.keys?.map((k) => [k.selector, k.active])).toEqual([
      [newSelector, true],
      [oldSelector, false],
    ]);
    expect((await server.app.services.dkim.signingKeysFor('rotate.youju.test'))[0]?.selector).toBe(
      newSelector,
    );

    const refused = await server.api('POST', 'user/removeDkimKey', {
      token: admin,
      body: { id: domain.id, selector: newSelector },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toContain('正在使用');

    const removed = await server.api('POST', 'user/removeDkimKey', {
      token: admin,
      body: { id: domain.id, selector: oldSelector },
    });
    expect(removed.body.data?.keys?.map((k) => k.selector)).toEqual([newSelector]);
    const gone = await server.api('POST', 'user/removeDkimKey', {
      token: admin,
      body: { id: domain.id, selector: oldSelector },
    });
    expect(gone.status).toBe(404);
  });

  it('adds an ed25519 key as a second selector (RFC 8463) without replacing the RSA signer', async () => {
    const domain = await addDomain(server, admin, 'ed.youju.test');
    const rotated = await server.api('POST', 'user/rotateDkim', {
      token: admin,
      body: { id: domain.id, algorithm: 'ed25519' },
    });
    expectOk(rotated.body);
    expect(rotated.body.data.selector).toBe(`yj${month()}`);
    const ed = expectDefined(
      rotated.body.data.keys?.find((k) => k.algorithm === 'ed25519'),
      'the ed25519 key',
    );
    expect(ed).toMatchObject({ selector: `yj${month()}e`, active: true });
    const raw = Buffer.from(/p=(.+)$/.exec(ed.record.value)?.[1] ?? '', 'base64');
    expect(raw).toHaveLength(32);
    expect(ed.record.value).toMatch(/^v=DKIM1; k=ed25519; p=/);
    // The raw key is the one the PEM holds, and the stored private key signs for it.
    const jwk = createPublicKey(ed.publicKey).export({ format: 'jwk' });
    expect(raw.toString('base64url')).toBe(jwk.x);
    const rows = await server.app.database.db
      .selectFrom('domain_dkim_keys')
      .select('private_key')
      .where('selector', '=', ed.selector)
      .where('domain_id', '=', domain.id)
      .execute();
    const signature = sign(null, Buffer.from('x'), rows[0]?.private_key ?? '');
    expect(verify(null, Buffer.from('x'), ed.publicKey, signature)).toBe(true);
  });

  it("keeps another user's DKIM key hidden and removes keys with the domain", async () => {
    const owner = await createUser(server, 'dkim-owner');
    const other = await createUser(server, 'dkim-other');
    const domain = await addDomain(server, owner.token, 'owned.youju.test');
    const peek = await server.api('GET', `user/getDkim?id=${domain.id}`, { token: other.token });
    expect(peek.status).toBe(404);
    expect(peek.body.msg).toBe('域名不存在');
    const mine = await server.api('GET', `user/getDkim?id=${domain.id}`, { token: owner.token });
    expectOk(mine.body);
    const anonymous = await server.api('GET', `user/getDkim?id=${domain.id}`);
    expect(anonymous.body.error).toBe(302);

    await server.api('POST', 'user/delDomain', { token: owner.token, body: { id: domain.id } });
    const keys = await server.app.database.db
      .selectFrom('domain_dkim_keys')
      .select('id')
      .where('domain_id', '=', domain.id)
      .execute();
    expect(keys).toHaveLength(0);
  });
});
