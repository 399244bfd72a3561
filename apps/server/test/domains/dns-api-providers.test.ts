import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDefined, expectOk } from '../support/api.js';
import {
  type RunningStandIn,
  startAlidnsStandIn,
  startCloudflareStandIn,
  startDnspodStandIn,
} from '../support/dns-api-standins.js';
import { addDomain, createUser } from '../support/fixtures.js';
import { startTestServerAsAdmin, stopAll, type TestServer } from '../support/test-server.js';

/**
 * setDNS through the HTTP APIs of Alibaba Cloud DNS, DNSPod and Cloudflare. The real services are
 * out of reach here, so each runs against a loopback stand-in that checks signatures the way the
 * service does (test/support/dns-api-standins.ts) — the one stand-in the project allows.
 */
const MAIL_HOST = 'mx.youju.test';

interface Case {
  kind: 'alidns' | 'dnspod' | 'cloudflare';
  zone: string;
  keyId: string;
  secret: string;
  wrongSecret: string;
}

const cases: Case[] = [
  {
    kind: 'alidns',
    zone: 'ali.youju.test',
    keyId: 'LTAI5tStandInKeyId01',
    secret: 'AliSecret+/=*()!~ 9xYz0123456789ab'.replace(' ', ''),
    wrongSecret: 'AliSecretWRONG0123456789abcdefgh',
  },
  {
    kind: 'dnspod',
    zone: 'pod.youju.test',
    keyId: 'AKIDstandInSecretId0123456789',
    secret: 'PodSecretKey0123456789abcdefghij',
    wrongSecret: 'PodSecretKeyWRONG0123456789abcde',
  },
  {
    kind: 'cloudflare',
    zone: 'cf.youju.test',
    keyId: '',
    secret: 'cfTokenStandIn_0123456789abcdefghijklmnop',
    wrongSecret: 'cfTokenWRONG_0123456789abcdefghijklmnopqr',
  },
];

describe('setDNS through provider APIs (stand-ins on loopback)', () => {
  let server: TestServer;
  let admin: string;
  const logs: string[] = [];
  const standIns = new Map<string, RunningStandIn>();

  beforeAll(async () => {
    const [ali, pod, cf] = cases;
    if (!ali || !pod || !cf) throw new Error('cases');
    standIns.set('alidns', await startAlidnsStandIn(ali));
    standIns.set('dnspod', await startDnspodStandIn(pod));
    standIns.set('cloudflare', await startCloudflareStandIn(cf));
    ({ server, admin } = await startTestServerAsAdmin({
      env: {
        MAIL_HOSTNAME: MAIL_HOST,
        ALIDNS_API_URL: standIns.get('alidns')?.url ?? '',
        DNSPOD_API_URL: standIns.get('dnspod')?.url ?? '',
        CLOUDFLARE_API_URL: `${standIns.get('cloudflare')?.url}/client/v4`,
      },
      logSink: (line) => logs.push(line),
    }));
  });
  afterAll(() => stopAll(server, ...standIns.values()));

  describe.each(cases)('$kind', (c) => {
    let domainId: number;
    let standIn: RunningStandIn;
    const providerBody = (secret: string) => ({
      id: domainId,
      kind: c.kind,
      ...(c.keyId ? { accessKeyId: c.keyId } : {}),
      secret,
    });

    beforeAll(async () => {
      standIn = expectDefined(standIns.get(c.kind), 'stand-in');
      domainId = (await addDomain(server, admin, c.zone)).id;
      // What an existing zone holds: an old MX, a stale SPF next to a site verification, two DMARC.
      standIn.records.push(
        { id: '1', name: c.zone, type: 'MX', value: 'mx.old-host.example', priority: 5, ttl: 600 },
        { id: '2', name: c.zone, type: 'TXT', value: 'v=spf1 include:old.example -all', ttl: 600 },
        { id: '3', name: c.zone, type: 'TXT', value: 'site-verification=keep-me', ttl: 600 },
        { id: '4', name: `_dmarc.${c.zone}`, type: 'TXT', value: 'v=DMARC1; p=none', ttl: 600 },
        { id: '5', name: `_dmarc.${c.zone}`, type: 'TXT', value: 'v=DMARC1; p=reject', ttl: 600 },
      );
    });

    it('stores the provider with a write-only secret', async () => {
      const saved = await server.api('POST', 'user/setDnsProvider', {
        token: admin,
        body: providerBody(c.secret),
      });
      expectOk(saved.body);
      const provider = expectDefined(saved.body.data.provider, 'provider');
      expect(provider).toMatchObject({ kind: c.kind, zone: c.zone });
      expect(provider.accessKeyId).toBe(c.keyId || undefined);
      expect(provider.secretMasked).toMatch(/^•+$/);
      const read = await server.api('GET', `user/getDnsProvider?id=${domainId}`, { token: admin });
      expect(read.body.data?.provider?.kind).toBe(c.kind);
      expect(JSON.stringify(saved.body) + JSON.stringify(read.body)).not.toContain(c.secret);

      // Saving again without a secret keeps it; a secret with spaces is refused.
      const kept = await server.api('POST', 'user/setDnsProvider', {
        token: admin,
        body: { id: domainId, kind: c.kind, ...(c.keyId ? { accessKeyId: c.keyId } : {}) },
      });
      expectOk(kept.body);
      const bad = await server.api('POST', 'user/setDnsProvider', {
        token: admin,
        body: providerBody('has spaces in it'),
      });
      expect(bad.status).toBe(400);
      expect(bad.body.msg).toMatch(/格式不正确/);
    });

    it('makes MX, SPF, DKIM and DMARC right, keeping other TXT records', async () => {
      const { body } = await server.api('POST', 'user/setDNS', { token: admin, body: { id: domainId } });
      expectOk(body);
      expect(body.data.records.map((record) => record.kind)).toEqual(['MX', 'SPF', 'DKIM', 'DMARC']);
      expect(body.data.records.find((record) => record.kind === 'DMARC')).toMatchObject({
        host: '_dmarc',
        fqdn: `_dmarc.${c.zone}.`,
      });
      const at = (name: string, type: string) =>
        standIn.records.filter((record) => record.name === name && record.type === type);
      expect(at(c.zone, 'MX').map((r) => [r.value, r.priority])).toEqual([[MAIL_HOST, 10]]);
      const apex = at(c.zone, 'TXT')
        .map((r) => r.value)
        .sort();
      expect(apex).toEqual(['site-verification=keep-me', `v=spf1 mx a:${MAIL_HOST} ~all`]);
      const dkim = await server.api('GET', `user/getDkim?id=${domainId}`, { token: admin });
      expectOk(dkim.body);
      expect(at(dkim.body.data.record.name, 'TXT').map((r) => r.value)).toEqual([
        dkim.body.data.record.value,
      ]);
      expect(at(`_dmarc.${c.zone}`, 'TXT').map((r) => r.value)).toEqual([
        'v=DMARC1; p=quarantine; adkim=r; aspf=r',
      ]);
    });

    it('changes nothing the second time (idempotent)', async () => {
      const before = standIn.mutations;
      const snapshot = JSON.stringify(standIn.records);
      const { body } = await server.api('POST', 'user/setDNS', { token: admin, body: { id: domainId } });
      expectOk(body);
      expect(body.data.records[0]?.detail).toContain('未做修改');
      expect(standIn.mutations).toBe(before);
      expect(JSON.stringify(standIn.records)).toBe(snapshot);
    });

    it('explains rate limiting', async () => {
      standIn.throttleNext = 1;
      const { status, body } = await server.api('POST', 'user/setDNS', {
        token: admin,
        body: { id: domainId },
      });
      expect(status).toBe(429);
      expect(body.msg).toContain('限流');
    });

    it('explains a zone the account does not hold', async () => {
      await server.api('POST', 'user/setDnsProvider', {
        token: admin,
        body: { id: domainId, zone: 'youju.test' },
      });
      const { status, body } = await server.api('POST', 'user/setDNS', {
        token: admin,
        body: { id: domainId },
      });
      expect(status).toBe(400);
      expect(body.msg).toContain('找不到域名（区域）youju.test');
      await server.api('POST', 'user/setDnsProvider', { token: admin, body: { id: domainId, zone: c.zone } });
    });

    it('explains a wrong secret in Chinese and changes nothing', async () => {
      await server.api('POST', 'user/setDnsProvider', { token: admin, body: providerBody(c.wrongSecret) });
      const before = standIn.mutations;
      const { status, body } = await server.api('POST', 'user/setDNS', {
        token: admin,
        body: { id: domainId },
      });
      expect(status).toBe(400);
      expect(body.msg).toContain('拒绝了访问密钥');
      expect(body.msg).not.toContain(c.wrongSecret);
      expect(standIn.mutations).toBe(before);
      await server.api('POST', 'user/setDnsProvider', { token: admin, body: providerBody(c.secret) });
    });

    it("keeps another user's provider out of reach", async () => {
      const mallory = await createUser(server, `mallory${c.kind}`);
      for (const [method, path, body] of [
        ['GET', `user/getDnsProvider?id=${domainId}`, undefined],
        [
          'POST',
          'user/setDnsProvider',
          { id: domainId, kind: 'cloudflare', secret: 'mallory-token-12345678' },
        ],
        ['POST', 'user/setDNS', { id: domainId }],
        ['POST', 'user/checkDNS', { id: domainId }],
      ] as const) {
        const response = await server.api(method, path, { token: mallory.token, body });
        expect(response.status, path).toBe(404);
        expect(JSON.stringify(response.body)).not.toContain(c.secret);
      }
      const read = await server.api('GET', `user/getDnsProvider?id=${domainId}`, { token: admin });
      expect(read.body.data?.provider?.kind).toBe(c.kind);
    });
  });

  it('refuses a kind switch without the new secret (another provider never gets the old one)', async () => {
    const domainId = (await addDomain(server, admin, 'switch.youju.test')).id;
    const first = cases[0];
    if (!first) throw new Error('case');
    expectOk(
      (
        await server.api('POST', 'user/setDnsProvider', {
          token: admin,
          body: { id: domainId, kind: 'alidns', accessKeyId: first.keyId, secret: first.secret },
        })
      ).body,
    );
    const switched = await server.api('POST', 'user/setDnsProvider', {
      token: admin,
      body: { id: domainId, kind: 'cloudflare' },
    });
    expect(switched.status).toBe(400);
    expect(switched.body.msg).toContain('API 令牌');
  });

  it('logs no secret at any level', () => {
    expect(logs.length).toBeGreaterThan(0);
    const all = logs.join('\n');
    for (const c of cases) {
      expect(all).not.toContain(c.secret);
      expect(all).not.toContain(c.wrongSecret);
    }
  });
});
