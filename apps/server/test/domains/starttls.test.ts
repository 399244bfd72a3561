import { X509Certificate } from 'node:crypto';
import { connect as connectTcp } from 'node:net';
import { connect as connectTls, type TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installCertificate, makeCertificate, type PemPair } from '../support/certificates.js';
import { command, reply } from '../support/smtp-lines.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const HOST = 'mx.youju.test';

/** EHLO, STARTTLS (RFC 3207) and a TLS handshake with SNI; returns the session and what it saw. */
async function startTls(port: number): Promise<{ socket: TLSSocket; fingerprint: string }> {
  const plain = connectTcp({ port, host: '127.0.0.1' });
  expect(await reply(plain)).toMatch(/^220 /);
  expect(await command(plain, 'EHLO client.youju.test')).toContain('STARTTLS');
  expect(await command(plain, 'STARTTLS')).toMatch(/^220 /);
  const socket = await new Promise<TLSSocket>((resolve, reject) => {
    const secure = connectTls({ socket: plain, servername: HOST, rejectUnauthorized: false }, () =>
      resolve(secure),
    );
    secure.once('error', reject);
  });
  expect(await command(socket, 'EHLO client.youju.test')).toMatch(/^250[ -]/);
  return { socket, fingerprint: socket.getPeerX509Certificate()?.fingerprint256 ?? '' };
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
    expect(await command(first.socket, 'NOOP')).toMatch(/^250 /);
    expect(await command(first.socket, 'QUIT')).toMatch(/^221 /);
    expect(await command(second.socket, 'QUIT')).toMatch(/^221 /);
  });
});
