import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDefined, expectOk } from '../support/api.js';
import {
  dig,
  generateTsigKey,
  type RunningDnsServer,
  startBind,
  type TsigKeyFile,
} from '../support/dns-servers.js';
import { addDomain, createUser } from '../support/fixtures.js';
import { startTestServerAsAdmin, stopAll, type TestServer } from '../support/test-server.js';

const MAIL_HOST = 'mx.youju.test';
const ZONE = 'set.youju.test';

describe('setDNS through RFC 2136 + TSIG against BIND 9', () => {
  let server: TestServer;
  let bind: RunningDnsServer;
  let key: TsigKeyFile;
  let admin: string;
  let domainId: number;

  beforeAll(async () => {
    key = generateTsigKey('youju-update');
    bind = await startBind(ZONE, key);
    // checkDNS reads from the same BIND, so what setDNS wrote can be verified end to end.
    ({ server, admin } = await startTestServerAsAdmin({
      env: { DNS_SERVERS: bind.address, MAIL_HOSTNAME: MAIL_HOST },
    }));
    domainId = (await addDomain(server, admin, ZONE)).id;
  });
  afterAll(() => stopAll(server, bind));

  it('refuses setDNS until a provider is configured', async () => {
    const { status, body } = await server.api('POST', 'user/setDNS', {
      token: admin,
      body: { id: domainId },
    });
    expect(status).toBe(400);
    expect(body.msg).toContain('DNS 服务商');
  });

  it('stores the provider with a write-only secret', async () => {
    const saved = await server.api('POST', 'user/setDnsProvider', {
      token: admin,
      body: {
        id: domainId,
        server: bind.address,
        keyName: key.name,
        algorithm: 'hmac-sha256',
        secret: key.secret,
      },
    });
    expectOk(saved.body);
    const provider = expectDefined(saved.body.data.provider, 'the saved provider');
    expect(provider).toMatchObject({
      kind: 'rfc2136',
      server: bind.address,
      zone: ZONE,
      keyName: key.name,
      algorithm: 'hmac-sha256',
    });
    expect(JSON.stringify(saved.body)).not.toContain(key.secret);
    expect(provider.secretMasked).toMatch(/^•+$/);
    const read = await server.api('GET', `user/getDnsProvider?id=${domainId}`, { token: admin });
    expect(JSON.stringify(read.body)).not.toContain(key.secret);
    expect(read.body.data?.provider?.keyName).toBe(key.name);

    // Editing without a secret keeps the stored one.
    const edited = await server.api('POST', 'user/setDnsProvider', {
      token: admin,
      body: { id: domainId, server: bind.address },
    });
    expectOk(edited.body);

    const bad = await server.api('POST', 'user/setDnsProvider', {
      token: admin,
      body: { id: domainId, server: 'not-an-ip' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('DNS 服务器地址');
    const badSecret = await server.api('POST', 'user/setDnsProvider', {
      token: admin,
      body: { id: domainId, secret: 'c2hvcnQ=' },
    });
    expect(badSecret.status).toBe(400);
    expect(badSecret.body.msg).toContain('base64');
  });

  it('writes MX, SPF, DKIM and DMARC, which dig then sees and checkDNS verifies', async () => {
    const { body } = await server.api('POST', 'user/setDNS', { token: admin, body: { id: domainId } });
    expectOk(body);
    expect(body.data.records.map((record) => record.kind)).toEqual(['MX', 'SPF', 'DKIM', 'DMARC']);

    expect(dig(bind.port, ZONE, 'MX')).toEqual([`10 ${MAIL_HOST}.`]);
    const apexTxt = dig(bind.port, ZONE, 'TXT');
    expect(apexTxt).toContain(`"v=spf1 mx a:${MAIL_HOST} ~all"`);
    // Other TXT records at the apex (site verifications) survive.
    expect(apexTxt).toContain('"site-verification=keep-me"');
    const dkim = await server.api('GET', `user/getDkim?id=${domainId}`, { token: admin });
    expectOk(dkim.body);
    const dkimTxt = dig(bind.port, dkim.body.data.record.name, 'TXT');
    expect(dkimTxt).toHaveLength(1);
    expect(dkimTxt[0]?.replace(/" "/g, '').replace(/"/g, '')).toBe(dkim.body.data.record.value);
    expect(dig(bind.port, `_dmarc.${ZONE}`, 'TXT')).toEqual(['"v=DMARC1; p=quarantine; adkim=r; aspf=r"']);

    const check = await server.api('POST', 'user/checkDNS', { token: admin, body: { id: domainId } });
    expect(check.body.data?.records.map((record) => record.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(check.body.data?.dnsStatus).toBe('ok');
  });

  it('is idempotent and publishes a rotated key next to the old one', async () => {
    const rotated = await server.api('POST', 'user/rotateDkim', { token: admin, body: { id: domainId } });
    expectOk(rotated.body);
    const again = await server.api('POST', 'user/setDNS', { token: admin, body: { id: domainId } });
    expectOk(again.body);
    expect(dig(bind.port, ZONE, 'TXT').filter((text) => text.includes('v=spf1'))).toHaveLength(1);
    for (const key of rotated.body.data.keys ?? []) {
      expect(dig(bind.port, key.record.name, 'TXT'), key.selector).toHaveLength(1);
    }
    const check = await server.api('POST', 'user/checkDNS', { token: admin, body: { id: domainId } });
    expect(check.body.data?.records.filter((record) => record.kind === 'DKIM')).toHaveLength(2);
    expect(check.body.data?.dnsStatus).toBe('ok');
  });

  it('explains a wrong TSIG secret in Chinese', async () => {
    const wrong = Buffer.from(key.secret, 'base64');
    wrong[0] = (wrong[0] ?? 0) ^ 0xff;
    await server.api('POST', 'user/setDnsProvider', {
      token: admin,
      body: { id: domainId, secret: wrong.toString('base64') },
    });
    const { status, body } = await server.api('POST', 'user/setDNS', {
      token: admin,
      body: { id: domainId },
    });
    expect(status).toBe(400);
    expect(body.msg).toMatch(/TSIG 签名校验失败/);
    expect(body.msg).toContain('BADSIG');
  });

  it('explains an unknown key name', async () => {
    await server.api('POST', 'user/setDnsProvider', {
      token: admin,
      body: { id: domainId, keyName: 'no-such-key', secret: key.secret },
    });
    const { status, body } = await server.api('POST', 'user/setDNS', {
      token: admin,
      body: { id: domainId },
    });
    expect(status).toBe(400);
    expect(body.msg).toContain('BADKEY');
  });

  it("keeps another user's provider and DKIM key out of reach", async () => {
    const mallory = await createUser(server, 'mallory');
    for (const [method, path, body] of [
      ['GET', `user/getDnsProvider?id=${domainId}`, undefined],
      [
        'POST',
        'user/setDnsProvider',
        { id: domainId, server: '127.0.0.1', keyName: 'x', secret: key.secret },
      ],
      ['POST', 'user/setDNS', { id: domainId }],
      ['GET', `user/getDkim?id=${domainId}`, undefined],
      ['POST', 'user/rotateDkim', { id: domainId }],
      ['POST', 'user/removeDkimKey', { id: domainId }],
    ] as const) {
      const response = await server.api(method, path, { token: mallory.token, body });
      expect(response.status, path).toBe(404);
      expect(response.body.msg, path).toBe('域名不存在');
    }
    // Still the administrator's settings (the edit above did not land).
    const read = await server.api('GET', `user/getDnsProvider?id=${domainId}`, { token: admin });
    expect(read.body.data?.provider?.server).toBe(bind.address);
  });
});
