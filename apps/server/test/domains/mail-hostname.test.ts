import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk } from '../support/api.js';
import { type RunningDnsServer, startDnsmasq } from '../support/dns-servers.js';
import { addDomain } from '../support/fixtures.js';
import { startTestServerAsAdmin, stopAll, type TestServer } from '../support/test-server.js';

/**
 * checkDNS warns when MAIL_HOSTNAME cannot be the MX target: it must resolve (A/AAAA through
 * DNS_SERVERS) to this server — a local interface's address, or PUBLIC_IP behind NAT.
 */
describe('checkDNS: the MAIL_HOSTNAME warning', () => {
  let dns: RunningDnsServer;
  const servers: TestServer[] = [];

  beforeAll(async () => {
    dns = await startDnsmasq({
      local: ['youju.test'],
      a: [
        { name: 'here.youju.test', ip: '127.0.0.1' },
        { name: 'elsewhere.youju.test', ip: '192.0.2.77' },
      ],
    });
  });
  afterAll(() => stopAll(...servers, dns));

  async function warningFor(env: Record<string, string>): Promise<string | undefined> {
    const { server, admin } = await startTestServerAsAdmin({ env: { DNS_SERVERS: dns.address, ...env } });
    servers.push(server);
    const { id } = await addDomain(server, admin, 'hostname.youju.test');
    const { body } = await server.api('POST', 'user/checkDNS', { token: admin, body: { id } });
    expectOk(body);
    // Every record is named both ways, for the two fields DNS providers' forms use.
    expect(body.data.records.map((record) => [record.host, record.fqdn])).toContainEqual([
      '_dmarc',
      '_dmarc.hostname.youju.test.',
    ]);
    expect(body.data.records[0]).toMatchObject({ host: '@', fqdn: 'hostname.youju.test.' });
    return body.data.hostnameWarning;
  }

  it('says nothing when the name resolves to this machine', async () => {
    expect(await warningFor({ MAIL_HOSTNAME: 'here.youju.test' })).toBeUndefined();
  });

  it('warns when the name resolves elsewhere, naming the address', async () => {
    const warning = await warningFor({ MAIL_HOSTNAME: 'elsewhere.youju.test' });
    expect(warning).toContain('192.0.2.77');
    expect(warning).toContain('PUBLIC_IP');
  });

  it('believes PUBLIC_IP behind NAT', async () => {
    expect(
      await warningFor({ MAIL_HOSTNAME: 'elsewhere.youju.test', PUBLIC_IP: '192.0.2.77' }),
    ).toBeUndefined();
  });

  it('warns when the name has no address records, or is not a domain name', async () => {
    expect(await warningFor({ MAIL_HOSTNAME: 'nowhere.youju.test' })).toContain('没有 A/AAAA 记录');
    expect(await warningFor({ MAIL_HOSTNAME: 'localhost' })).toContain('不是完整域名');
  });
});
