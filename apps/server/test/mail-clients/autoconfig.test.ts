import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type SenderWorld, senderWorld } from '../sending/sending-helpers.js';
import { expectOk } from '../support/api.js';
import { installCertificate, makeCertificate } from '../support/certificates.js';
import { createAddress, createUser } from '../support/fixtures.js';
import { startTestServer, startTestServerAsAdmin, type TestServer } from '../support/test-server.js';

const run = promisify(execFile);

/**
 * Parses an XML document or an Apple plist with Python's own parsers (an independent reader, and
 * the strict one: a malformed document fails) and answers what the test asks for as JSON.
 */
async function parseWithPython(kind: 'clientConfig' | 'autodiscover' | 'plist', document: string) {
  const script = `
import json, plistlib, sys
import xml.etree.ElementTree as ET
kind, data = sys.argv[1], sys.stdin.buffer.read()
if kind == 'plist':
    print(json.dumps(plistlib.loads(data), default=str))
    sys.exit(0)
root = ET.fromstring(data)
def text(node, name):
    found = node.find(name)
    return None if found is None else found.text
if kind == 'clientConfig':
    provider = root.find('emailProvider')
    servers = []
    for node in list(provider):
        if node.tag in ('incomingServer', 'outgoingServer'):
            servers.append({'type': node.get('type'), 'hostname': text(node, 'hostname'), 'port': int(text(node, 'port')),
                            'socketType': text(node, 'socketType'), 'username': text(node, 'username')})
    print(json.dumps({'id': provider.get('id'), 'domain': text(provider, 'domain'), 'servers': servers}))
else:
    ns = {'r': 'http://schemas.microsoft.com/exchange/autodiscover/outlook/responseschema/2006a'}
    protocols = []
    for node in root.iter('{%s}Protocol' % ns['r']):
        protocols.append({child.tag.split('}')[1]: child.text for child in node})
    print(json.dumps(protocols))
`;
  const child = run('python3', ['-c', script, kind]);
  child.child.stdin?.end(document);
  const { stdout } = await child;
  return JSON.parse(stdout) as unknown;
}

const PORTS = {
  IMAP_PORT: '1143',
  IMAPS_PORT: '1993',
  POP3_PORT: '0',
  SUBMISSION_PORT: '1587',
  SUBMISSIONS_PORT: '1465',
};

describe('mail-client autoconfiguration', () => {
  let server: TestServer;
  let admin: string;
  let world: SenderWorld;

  beforeAll(async () => {
    ({ server, admin } = await startTestServerAsAdmin({
      env: { ...PORTS, MAIL_HOSTNAME: 'mail.youju.test' },
      // The implicit-TLS ports are advertised only with a valid certificate (their listeners need one).
      prepareDataDir: (dataDir) =>
        installCertificate(dataDir, 'mail.youju.test', makeCertificate(['mail.youju.test'])),
    }));
    world = await senderWorld(server, 'clients', 'clients.test');
  });
  afterAll(async () => server?.close());

  const get = (path: string) => fetch(`${server.baseUrl}${path}`);

  it('Thunderbird: clientConfig v1.1 at both URLs with the listeners that are on', async () => {
    for (const path of [
      '/.well-known/autoconfig/mail/config-v1.1.xml',
      `/mail/config-v1.1.xml?emailaddress=${encodeURIComponent(world.mailboxAddress)}`,
    ]) {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/xml/);
      const parsed = (await parseWithPython('clientConfig', await response.text())) as {
        id: string;
        domain: string;
        servers: { type: string; hostname: string; port: number; socketType: string; username: string }[];
      };
      expect(parsed.id).toBe('mail.youju.test');
      // POP3_PORT=0 and POP3S_PORT unset: no POP3 at all.
      expect(parsed.servers).toEqual([
        {
          type: 'imap',
          hostname: 'mail.youju.test',
          port: 1993,
          socketType: 'SSL',
          username: '%EMAILADDRESS%',
        },
        {
          type: 'imap',
          hostname: 'mail.youju.test',
          port: 1143,
          socketType: 'STARTTLS',
          username: '%EMAILADDRESS%',
        },
        {
          type: 'smtp',
          hostname: 'mail.youju.test',
          port: 1465,
          socketType: 'SSL',
          username: '%EMAILADDRESS%',
        },
        {
          type: 'smtp',
          hostname: 'mail.youju.test',
          port: 1587,
          socketType: 'STARTTLS',
          username: '%EMAILADDRESS%',
        },
      ]);
    }
    const forAddress = await (await get(`/mail/config-v1.1.xml?emailaddress=${world.mailboxAddress}`)).text();
    expect(((await parseWithPython('clientConfig', forAddress)) as { domain: string }).domain).toBe(
      'clients.test',
    );
  });

  it('answers unknown and hostile addresses with the same well-formed generic document', async () => {
    const unknown = await (await get('/mail/config-v1.1.xml?emailaddress=nobody@clients.test')).text();
    const known = await (await get(`/mail/config-v1.1.xml?emailaddress=${world.mailboxAddress}`)).text();
    // Nothing tells an existing address from a missing one.
    expect(unknown).toBe(known);
    for (const hostile of [
      '"><script>alert(1)</script>@x.test',
      'a@b.test</domain><incomingServer type="imap"><hostname>evil.test',
      ']]>&amp;<!ENTITY x SYSTEM "file:///etc/passwd">',
      'x'.repeat(300),
    ]) {
      const response = await get(`/mail/config-v1.1.xml?emailaddress=${encodeURIComponent(hostile)}`);
      expect([200, 400]).toContain(response.status);
      const text = await response.text();
      if (response.status === 400) {
        expect(JSON.parse(text)).toMatchObject({ error: 400 });
        continue;
      }
      expect(text).not.toContain('<script>');
      expect(text).not.toContain('evil.test');
      const parsed = (await parseWithPython('clientConfig', text)) as { domain: string; servers: unknown[] };
      expect(parsed.domain).toBe('mail.youju.test');
      expect(parsed.servers).toHaveLength(4);
    }
  });

  it('Outlook autodiscover: reads EMailAddress without an XML parser (no entities), answers POX', async () => {
    const request = (address: string, extra = '') =>
      `<?xml version="1.0" encoding="utf-8"?>${extra}<Autodiscover xmlns="http://schemas.microsoft.com/exchange/autodiscover/outlook/requestschema/2006"><Request><EMailAddress>${address}</EMailAddress><AcceptableResponseSchema>http://schemas.microsoft.com/exchange/autodiscover/outlook/responseschema/2006a</AcceptableResponseSchema></Request></Autodiscover>`;
    const post = (body: string, type = 'text/xml') =>
      fetch(`${server.baseUrl}/autodiscover/autodiscover.xml`, {
        method: 'POST',
        headers: { 'content-type': type },
        body,
      });
    const response = await post(request(world.mailboxAddress));
    expect(response.status).toBe(200);
    const protocols = (await parseWithPython('autodiscover', await response.text())) as Record<
      string,
      string
    >[];
    expect(protocols.map((protocol) => [protocol.Type, protocol.Port, protocol.Encryption])).toEqual([
      ['IMAP', '1993', 'SSL'],
      ['IMAP', '1143', 'TLS'],
      ['SMTP', '1465', 'SSL'],
      ['SMTP', '1587', 'TLS'],
    ]);
    for (const protocol of protocols) {
      expect(protocol).toMatchObject({
        Server: 'mail.youju.test',
        LoginName: world.mailboxAddress,
        SSL: 'on',
      });
    }

    // An entity (XXE, billion laughs) is inert text: no LoginName, no file contents, no hang.
    const xxe = await post(
      request('&xxe;', '<!DOCTYPE a [<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY b "&xxe;&xxe;">]>'),
    );
    expect(xxe.status).toBe(200);
    const xxeText = await xxe.text();
    expect(xxeText).not.toContain('root:');
    expect(xxeText).not.toContain('LoginName');
    // A script in the address never comes back unescaped; an unknown address is answered alike.
    const hostile = await (await post(request('<x>"&lt;@a.test'), 'application/xml')).text();
    expect(hostile).not.toContain('LoginName');
    const unknown = await (await post(request('nobody@clients.test'), 'text/plain')).text();
    expect(unknown).toBe(
      (await (await post(request(world.mailboxAddress))).text()).replaceAll(
        world.mailboxAddress,
        'nobody@clients.test',
      ),
    );
    // Over the size cap: refused, not read.
    const big = await post(request(world.mailboxAddress, `<!--${'x'.repeat(20_000)}-->`));
    expect(big.status).toBe(413);
  });

  it('getClientSettings: a mailbox sees its own, a user its addresses, nobody another one', async () => {
    const own = await server.api('GET', 'user/getClientSettings', { token: world.mailboxToken });
    expectOk(own.body);
    expect(own.body.data).toMatchObject({
      address: world.mailboxAddress,
      username: world.mailboxAddress,
      hostname: 'mail.youju.test',
      canLogin: true,
    });
    expect(own.body.data.servers.map((entry) => `${entry.protocol}:${entry.port}:${entry.security}`)).toEqual(
      ['imap:1993:SSL', 'imap:1143:STARTTLS', 'smtp:1465:SSL', 'smtp:1587:STARTTLS'],
    );

    const address = await createAddress(
      server,
      { userToken: world.userToken, domainId: world.domainId },
      'plain',
    );
    const byOwner = await server.api('GET', `user/getClientSettings?address=${address.address}`, {
      token: world.userToken,
    });
    expectOk(byOwner.body);
    expect(byOwner.body.data.canLogin).toBe(false);
    expectOk(
      (await server.api('GET', `user/getClientSettings?address=${address.address}`, { token: admin })).body,
    );

    const stranger = await createUser(server, 'clients-stranger');
    const foreign = await server.api('GET', `user/getClientSettings?address=${address.address}`, {
      token: stranger.token,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.msg).toMatch(/不属于你/);
    const missing = await server.api('GET', 'user/getClientSettings?address=nobody@clients.test', {
      token: stranger.token,
    });
    expect(missing.body).toEqual(foreign.body);
    const otherMailbox = await server.api('GET', `user/getClientSettings?address=${address.address}`, {
      token: world.mailboxToken,
    });
    expect(otherMailbox.status).toBe(403);
    expect((await server.api('GET', 'user/getClientSettings', { token: world.userToken })).status).toBe(400);
    expect((await server.api('GET', 'user/getClientSettings')).status).toBe(401);
  });

  it('Apple profile: a valid plist with IMAP and submission, no password, for the owner only', async () => {
    const response = await fetch(`${server.baseUrl}/api/user/getMobileConfig`, {
      headers: { authorization: `Bearer ${world.mailboxToken}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/x-apple-aspen-config/);
    expect(response.headers.get('content-disposition')).toMatch(/attachment;.*\.mobileconfig/);
    const text = await response.text();
    expect(text).not.toMatch(/Password<\/key>\s*<string>/);
    const profile = (await parseWithPython('plist', text)) as {
      PayloadType: string;
      PayloadContent: Record<string, unknown>[];
    };
    expect(profile.PayloadType).toBe('Configuration');
    expect(profile.PayloadContent[0]).toMatchObject({
      PayloadType: 'com.apple.mail.managed',
      EmailAccountType: 'EmailTypeIMAP',
      EmailAddress: world.mailboxAddress,
      IncomingMailServerHostName: 'mail.youju.test',
      IncomingMailServerPortNumber: 1993,
      IncomingMailServerUseSSL: true,
      IncomingMailServerUsername: world.mailboxAddress,
      OutgoingMailServerPortNumber: 1465,
      OutgoingMailServerUsername: world.mailboxAddress,
    });
    expect(Object.keys(profile.PayloadContent[0] ?? {})).not.toContain('IncomingPassword');

    const stranger = await createUser(server, 'profile-stranger');
    const foreign = await fetch(
      `${server.baseUrl}/api/user/getMobileConfig?address=${encodeURIComponent(world.mailboxAddress)}`,
      { headers: { authorization: `Bearer ${stranger.token}` } },
    );
    expect(foreign.status).toBe(404);
    expect((await fetch(`${server.baseUrl}/api/user/getMobileConfig`)).status).toBe(401);
  });

  it('leaves out the implicit-TLS ports while no certificate is installed', async () => {
    const bare = await startTestServer({ env: { ...PORTS, MAIL_HOSTNAME: 'mail.youju.test' } });
    try {
      const text = await (await fetch(`${bare.baseUrl}/.well-known/autoconfig/mail/config-v1.1.xml`)).text();
      const parsed = (await parseWithPython('clientConfig', text)) as { servers: { port: number }[] };
      expect(parsed.servers.map((entry) => entry.port)).toEqual([1143, 1587]);
    } finally {
      await bare.close();
    }
  });

  it('reads the mail-client ports from the environment: defaults, 0 = off, bad values named', () => {
    const defaults = loadConfig({});
    expect([defaults.imapPort, defaults.imapsPort, defaults.pop3Port, defaults.pop3sPort]).toEqual([
      1143,
      null,
      1110,
      null,
    ]);
    expect([defaults.submissionPort, defaults.submissionsPort]).toEqual([1587, null]);
    const off = loadConfig({ SUBMISSION_PORT: '0', IMAP_PORT: '0', SUBMISSIONS_PORT: '465' });
    expect([off.submissionPort, off.imapPort, off.submissionsPort]).toEqual([null, null, 465]);
    expect(() => loadConfig({ SUBMISSIONS_PORT: 'abc' })).toThrow(/SUBMISSIONS_PORT/);
    expect(() => loadConfig({ POP3_PORT: '70000' })).toThrow(/POP3_PORT/);
  });

  /** The status of GET `path` sent from the loopback address `localAddress`. */
  function statusFrom(localAddress: string, path: string): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      const url = new URL(`${server.baseUrl}${path}`);
      const req = request({ host: url.hostname, port: url.port, path: url.pathname, localAddress }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.once('error', reject);
      req.end();
    });
  }

  it('keeps the firewall in front of the public documents', async () => {
    expectOk((await server.api('GET', 'waf/addBlacklistIP?ip=127.0.0.9', { token: admin })).body);
    expect(await statusFrom('127.0.0.9', '/.well-known/autoconfig/mail/config-v1.1.xml')).toBe(403);
  });

  it('limits each source to 120 requests a minute (429), others unaffected', async () => {
    const path = '/mail/config-v1.1.xml';
    const statuses: number[] = [];
    for (let index = 0; index < 121; index++) statuses.push(await statusFrom('127.0.0.8', path));
    expect(statuses.slice(0, 120).every((status) => status === 200)).toBe(true);
    expect(statuses[120]).toBe(429);
    expect(await statusFrom('127.0.0.10', path)).toBe(200);
  });
});
