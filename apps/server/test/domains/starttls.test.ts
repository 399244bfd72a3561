import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installCertificate, makeCertificate, type PemPair } from '../support/certificates.js';
import { SmtpClient } from '../support/smtp-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const HOST = 'mx.youju.test';

/** EHLO, STARTTLS (RFC 3207) and a TLS handshake with SNI; returns the session and what it saw. */
async function startTls(port: number): Promise<{ client: SmtpClient; fingerprint: string }> {
  const client = await SmtpClient.connect(port);
  expect((await client.read()).code).toBe(220);
  expect((await client.command('EHLO client.youju.test')).text).toContain('STARTTLS');
  expect((await client.command('STARTTLS')).code).toBe(220);
  await client.startTls(HOST);
  expect((await client.command('EHLO client.youju.test')).code).toBe(250);
  return { client, fingerprint: client.peerCertificate()?.fingerprint256 ?? '' };
}

describe('SMTP STARTTLS with the certificate service', () => {
  let server: TestServer;
  let admin: string;
  let a: PemPair;
  let b: PemPair;

  beforeAll(async () => {
    a = makeCertificate([HOST]);
    b = makeCertificate([HOST]);
    // Present before start, as an operator's certbot folder would be.
    server = await startTestServer({ env: { MAIL_HOSTNAME: HOST } });
    await installCertificate(server.dataDir, HOST, a);
    admin = await server.adminToken();
    await server.api('POST', 'user/reloadCertificates', { token: admin });
  });
  afterAll(async () => server?.close());

  it('presents A, then B after reloadCertificates, keeping an open session alive', async () => {
    const port = server.smtpPort;
    if (!port) throw new Error('the test server has no SMTP listener');
    const first = await startTls(port);
    expect(first.fingerprint).toBe(new X509Certificate(a.cert).fingerprint256);

    await installCertificate(server.dataDir, HOST, b);
    const reloaded = await server.api('POST', 'user/reloadCertificates', { token: admin });
    expect(reloaded.body.data?.certificates).toEqual([
      expect.objectContaining({ hostnames: [HOST], status: 'ok' }),
    ]);

    const second = await startTls(port);
    expect(second.fingerprint).toBe(new X509Certificate(b.cert).fingerprint256);
    // The session opened before the reload is still there and still answers.
    expect((await first.client.command('NOOP')).code).toBe(250);
    expect((await first.client.command('QUIT')).code).toBe(221);
    expect((await second.client.command('QUIT')).code).toBe(221);
  });
});
