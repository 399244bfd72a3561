import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk } from '../support/api.js';
import {
  type DnsmasqRecords,
  freeDnsPort,
  type RunningDnsServer,
  startDnsmasq,
  startSilentDnsServer,
} from '../support/dns-servers.js';
import { addDomain, createUser } from '../support/fixtures.js';
import { startTestServer, startTestServerAsAdmin, stopAll, type TestServer } from '../support/test-server.js';

const MAIL_HOST = 'mx.youju.test';
const kinds = ['MX', 'SPF', 'DKIM', 'DMARC'] as const;
type Kind = (typeof kinds)[number];

/** The records a domain publishes in each scenario: right, absent, or wrong in one way. */
function recordsFor(
  domain: string,
  dkim: { name: string; value: string },
  broken: { kind: Kind; how: 'missing' | 'wrong' } | null,
) {
  const records: Required<Pick<DnsmasqRecords, 'mx' | 'txt'>> = { mx: [], txt: [] };
  const is = (kind: Kind, how: 'missing' | 'wrong') => broken?.kind === kind && broken.how === how;
  if (!is('MX', 'missing')) {
    records.mx.push({
      name: domain,
      host: is('MX', 'wrong') ? 'mail.elsewhere.example' : MAIL_HOST,
      preference: 10,
    });
  }
  if (!is('SPF', 'missing')) {
    records.txt.push({
      name: domain,
      value: is('SPF', 'wrong')
        ? 'v=spf1 include:_spf.elsewhere.example -all'
        : `v=spf1 mx a:${MAIL_HOST} ~all`,
    });
  }
  if (!is('DKIM', 'missing')) {
    // A different key: the tail of the base64 changed.
    const value = is('DKIM', 'wrong') ? `${dkim.value.slice(0, -12)}AAAAAAAAAAAA` : dkim.value;
    records.txt.push({ name: dkim.name, value });
  }
  if (!is('DMARC', 'missing')) {
    records.txt.push({
      name: `_dmarc.${domain}`,
      value: is('DMARC', 'wrong') ? 'v=DMARC1; p=maybe' : 'v=DMARC1; p=reject',
    });
  }
  return records;
}

describe('checkDNS against dnsmasq on loopback', () => {
  let server: TestServer;
  let dns: RunningDnsServer;
  let admin: string;
  const scenarios: Array<{ domain: string; broken: { kind: Kind; how: 'missing' | 'wrong' } | null }> = [
    { domain: 'good.youju.test', broken: null },
    ...kinds.flatMap((kind) =>
      (['missing', 'wrong'] as const).map((how) => ({
        domain: `${how}-${kind.toLowerCase()}.youju.test`,
        broken: { kind, how },
      })),
    ),
  ];
  const ids = new Map<string, number>();

  beforeAll(async () => {
    const port = await freeDnsPort();
    ({ server, admin } = await startTestServerAsAdmin({
      env: { DNS_SERVERS: `127.0.0.1:${port}`, MAIL_HOSTNAME: MAIL_HOST },
    }));
    const all: DnsmasqRecords = { local: ['youju.test'], mx: [], txt: [] };
    for (const scenario of [
      ...scenarios,
      { domain: 'bare.youju.test', broken: null },
      { domain: 'two-spf.youju.test', broken: null },
    ]) {
      const domain = await addDomain(server, admin, scenario.domain);
      ids.set(scenario.domain, domain.id);
      if (scenario.domain === 'bare.youju.test') continue;
      const dkim = await server.api('GET', `user/getDkim?id=${domain.id}`, { token: admin });
      expectOk(dkim.body);
      const records = recordsFor(scenario.domain, dkim.body.data.record, scenario.broken);
      all.mx?.push(...records.mx);
      all.txt?.push(...records.txt);
      if (scenario.domain === 'two-spf.youju.test')
        all.txt?.push({ name: scenario.domain, value: 'v=spf1 -all' });
    }
    dns = await startDnsmasq(all, port);
  });
  afterAll(() => stopAll(server, dns));

  /** checkDNS's answer for `domain`, with its records by kind. */
  async function check(domain: string) {
    const response = await server.api('POST', 'user/checkDNS', {
      token: admin,
      body: { id: ids.get(domain) },
    });
    const records = new Map((response.body.data?.records ?? []).map((record) => [record.kind, record]));
    return { ...response, records };
  }

  it('reports every record ok when all four are published, and stores dnsStatus ok', async () => {
    const { body, records } = await check('good.youju.test');
    expectOk(body);
    expect(body.data.records).toHaveLength(4);
    for (const kind of kinds) expect(records.get(kind)?.status, kind).toBe('ok');
    expect(records.get('MX')).toMatchObject({
      type: 'MX',
      name: 'good.youju.test',
      expected: `10 ${MAIL_HOST}`,
      found: [`10 ${MAIL_HOST}`],
    });
    const dkim = await server.api('GET', `user/getDkim?id=${ids.get('good.youju.test')}`, { token: admin });
    expectOk(dkim.body);
    expect(records.get('DKIM')).toMatchObject({
      type: 'TXT',
      name: dkim.body.data.record.name,
      expected: dkim.body.data.record.value,
      found: [dkim.body.data.record.value],
    });
    expect(records.get('DMARC')?.name).toBe('_dmarc.good.youju.test');
    expect(body.data.dnsStatus).toBe('ok');
    const list = await server.api('GET', 'user/getDomains', { token: admin });
    expect(list.body.data?.find((d) => d.name === 'good.youju.test')?.dnsStatus).toBe('ok');
  });

  it('reports every record missing for a domain with nothing published, saying what to set where', async () => {
    const { records, body } = await check('bare.youju.test');
    for (const kind of kinds) {
      expect(records.get(kind)?.status, kind).toBe('missing');
      expect(records.get(kind)?.found).toEqual([]);
      expect(records.get(kind)?.detail, kind).toMatch(/请在域名 bare\.youju\.test 的 DNS 解析中添加/);
    }
    expect(records.get('DMARC')?.detail).toContain('主机记录 _dmarc');
    expect(records.get('MX')?.detail).toContain(`记录值 ${MAIL_HOST}`);
    expect(body.data?.dnsStatus).toBe('failed');
  });

  for (const kind of kinds) {
    for (const how of ['missing', 'wrong'] as const) {
      it(`reports ${kind} ${how} and the others ok (dnsStatus partial)`, async () => {
        const { records, body } = await check(`${how}-${kind.toLowerCase()}.youju.test`);
        for (const other of kinds)
          expect(records.get(other)?.status, other).toBe(other === kind ? how : 'ok');
        const record = records.get(kind);
        expect(record?.detail).toMatch(/[\u4e00-\u9fa5]/);
        if (how === 'wrong') expect(record?.found.length).toBeGreaterThan(0);
        expect(body.data?.dnsStatus).toBe('partial');
      });
    }
  }

  it('treats two SPF records as wrong (RFC 7208 4.5)', async () => {
    const { records } = await check('two-spf.youju.test');
    expect(records.get('SPF')?.status).toBe('wrong');
    expect(records.get('SPF')?.found).toHaveLength(2);
    expect(records.get('SPF')?.detail).toContain('合并为一条');
  });

  it("answers 404 for another user's domain", async () => {
    const nosy = await createUser(server, 'nosy', { password: 'nosy-password' });
    const response = await server.api('POST', 'user/checkDNS', {
      token: nosy.token,
      body: { id: ids.get('good.youju.test') },
    });
    expect(response.status).toBe(404);
  });
});

describe('checkDNS when the resolver does not answer', () => {
  it('reports a time-out for every record within a few seconds', async () => {
    const silent = await startSilentDnsServer();
    const server = await startTestServer({ env: { DNS_SERVERS: silent.address, MAIL_HOSTNAME: MAIL_HOST } });
    try {
      const admin = await server.adminToken();
      const domain = await addDomain(server, admin, 'silent.youju.test');
      const started = Date.now();
      const { body } = await server.api('POST', 'user/checkDNS', { token: admin, body: { id: domain.id } });
      const elapsed = Date.now() - started;
      expect(elapsed).toBeLessThan(8000);
      expectOk(body);
      expect(body.data.records).toHaveLength(4);
      for (const record of body.data.records) {
        expect(record.status).toBe('timeout');
        expect(record.detail).toMatch(/没有应答/);
      }
      expect(body.data.dnsStatus).toBe('failed');
    } finally {
      await server.close();
      await silent.stop();
    }
  });

  it('reports a port nobody listens on as not answering', async () => {
    const port = await freeDnsPort();
    const server = await startTestServer({
      env: { DNS_SERVERS: `127.0.0.1:${port}`, MAIL_HOSTNAME: MAIL_HOST },
    });
    try {
      const admin = await server.adminToken();
      const domain = await addDomain(server, admin, 'closed.youju.test');
      const started = Date.now();
      const { body } = await server.api('POST', 'user/checkDNS', { token: admin, body: { id: domain.id } });
      expect(Date.now() - started).toBeLessThan(8000);
      for (const record of body.data?.records ?? []) expect(record.status).toBe('timeout');
    } finally {
      await server.close();
    }
  });
});
