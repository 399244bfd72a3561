import type { X509Certificate } from 'node:crypto';
import { connect as connectTcp } from 'node:net';
import { connect as connectTls, type TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reply } from '../support/smtp-lines.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * With no certificate installed, STARTTLS used to be hidden but still accepted, with smtp-server's
 * built-in expired `localhost` test key. Now a self-signed certificate for MAIL_HOSTNAME is offered.
 */
describe('STARTTLS without an operator certificate', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { MAIL_HOSTNAME: 'mx.selfsigned.test' } });
  });
  afterAll(async () => server?.close());

  it('offers a valid self-signed certificate for MAIL_HOSTNAME, never the library’s test key', async () => {
    const plain = connectTcp({ port: server.smtpPort, host: '127.0.0.1' });
    expect(await reply(plain)).toMatch(/^220 /);
    const ehlo = reply(plain);
    plain.write('EHLO client.test\r\n');
    expect(await ehlo).toContain('STARTTLS');
    const ready = reply(plain);
    plain.write('STARTTLS\r\n');
    expect(await ready).toMatch(/^220 /);
    const secure = await new Promise<TLSSocket>((resolve, reject) => {
      const socket = connectTls(
        { socket: plain, servername: 'mx.selfsigned.test', rejectUnauthorized: false },
        () => resolve(socket),
      );
      socket.once('error', reject);
    });
    const certificate = secure.getPeerX509Certificate() as X509Certificate;
    expect(certificate.subject).toBe('CN=mx.selfsigned.test');
    expect(certificate.subjectAltName).toBe('DNS:mx.selfsigned.test');
    expect(Date.parse(certificate.validTo)).toBeGreaterThan(Date.now());
    expect(certificate.subject).not.toMatch(/localhost/);
    const after = reply(secure);
    secure.write('EHLO client.test\r\n');
    expect(await after).toMatch(/^250[ -]/);
    secure.destroy();
    // it is not an operator certificate: the certificates screen does not list it
    const admin = await server.adminToken();
    const listed = await server.api('POST', 'user/reloadCertificates', { token: admin });
    expect(listed.body.data?.certificates).toEqual([]);
  });
});
