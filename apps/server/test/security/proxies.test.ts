import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startTestServer, stopAll, type TestServer } from '../support/test-server.js';

/**
 * Behind a reverse proxy every ban and limit used to hit the proxy. X-Forwarded-For is now read only
 * from TRUSTED_PROXIES, and never lets a banned client out.
 */
describe('TRUSTED_PROXIES', () => {
  let direct: TestServer;
  let proxied: TestServer;
  beforeAll(async () => {
    direct = await startTestServer();
    proxied = await startTestServer({ env: { TRUSTED_PROXIES: '127.0.0.1' } });
  });
  afterAll(() => stopAll(direct, proxied));

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    // A manual blacklist entry for the client's real address (loopback here).
    await direct.app.services.firewall.block('127.0.0.1', 'test', null, 'manual');
    const spoofed = await direct.api('GET', 'getVar', { headers: { 'x-forwarded-for': '198.51.100.1' } });
    expect(spoofed.status).toBe(403);
    await direct.app.services.firewall.unblock('127.0.0.1');
  });

  it('applies bans and limits to the forwarded client, not to the proxy', async () => {
    await proxied.app.services.firewall.block('203.0.113.5', 'test', null, 'manual');
    const banned = await proxied.api('GET', 'getVar', { headers: { 'x-forwarded-for': '203.0.113.5' } });
    expect(banned.status).toBe(403);
    // a client cannot hide behind a name it adds itself: the proxy appends the real one on the right
    const hiding = await proxied.api('GET', 'getVar', {
      headers: { 'x-forwarded-for': '198.51.100.9, 203.0.113.5' },
    });
    expect(hiding.status).toBe(403);
    // the proxy itself and everyone else behind it still get through
    expect(
      (await proxied.api('GET', 'getVar', { headers: { 'x-forwarded-for': '198.51.100.10' } })).status,
    ).toBe(200);
    expect((await proxied.api('GET', 'getVar')).status).toBe(200);
  });

  it('refuses a malformed TRUSTED_PROXIES at start with a message naming it', async () => {
    for (const value of ['10.0.0.0/99', 'proxy.example', '1.2.3']) {
      expect(() => loadConfig({ TRUSTED_PROXIES: value })).toThrow(/TRUSTED_PROXIES/);
    }
    expect(loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, ::1, 2001:db8::/32' }).trustedProxies).toHaveLength(3);
  });
});
