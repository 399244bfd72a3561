import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDomain, createUser } from '../support/fixtures.js';
import { startTestServerAsAdmin, type TestServer } from '../support/test-server.js';

const SECRET = Buffer.alloc(32, 7).toString('base64');

/**
 * SSRF through the DNS provider setting: a user could point RFC 2136 updates at loopback or
 * link-local addresses and read from the error text which ports were open.
 */
describe('DNS provider addresses', () => {
  let server: TestServer;
  let admin: string;
  let user: { id: number; token: string };
  let domainId: number;
  beforeAll(async () => {
    ({ server, admin } = await startTestServerAsAdmin());
    user = await createUser(server, 'dns-user');
    domainId = (await addDomain(server, user.token, 'ssrf.test')).id;
  });
  afterAll(async () => server?.close());

  const setProvider = (token: string, address: string) =>
    server.api('POST', 'user/setDnsProvider', {
      token,
      body: { id: domainId, server: address, keyName: 'youju-update', secret: SECRET },
    });

  it('refuses loopback, private, link-local and unique-local servers to a user', async () => {
    for (const address of [
      '127.0.0.1:22',
      '10.0.0.1',
      '192.168.1.1:53',
      '169.254.169.254:80',
      '[::1]:53',
      '[fd00::1]:53',
      '0.0.0.0',
      '100.64.0.1',
    ]) {
      const { status, body } = await setProvider(user.token, address);
      expect(status, address).toBe(403);
      expect(body.msg, address).toMatch(/公网地址/);
    }
  });

  it('gives a user the same answer for a closed port, a silent one and a non-DNS service', async () => {
    // Administrators may aim at loopback (their own name server); here they set it for the user's
    // domain, and the user runs setDNS: the listener is a TCP service that is no DNS server, and
    // UDP to the same port gets no answer.
    const tcp = createServer((socket) => socket.end('SSH-2.0-OpenSSH_9.2\r\n'));
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', () => resolve()));
    const port = (tcp.address() as { port: number }).port;
    try {
      const stored = await setProvider(admin, `127.0.0.1:${port}`);
      expect(stored.body.error, stored.body.msg).toBe(0);
      const asUser = await server.api('POST', 'user/setDNS', { token: user.token, body: { id: domainId } });
      // Checked at use too: a user cannot run an update against a private address an admin stored.
      expect(asUser.status).toBe(403);
      const asAdmin = await server.api('POST', 'user/setDNS', { token: admin, body: { id: domainId } });
      expect(asAdmin.body.error).not.toBe(0);
    } finally {
      tcp.close();
    }
    // Public addresses are allowed to users; one that does not answer (an address this closed network never reaches) gives the same
    // text whatever the cause.
    expect((await setProvider(user.token, '93.184.216.34:53')).body.error).toBe(0);
    const silent = await server.api('POST', 'user/setDNS', { token: user.token, body: { id: domainId } });
    expect(silent.body.error).toBe(408);
    expect(silent.body.msg).toBe(
      'DNS 服务器 93.184.216.34:53 没有成功应答更新请求，请检查服务器地址、端口、防火墙（放行 53 端口的 UDP 和 TCP）以及服务器是否在运行',
    );
  });
});
