import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDefined } from '../support/api.js';
import { SmtpClient } from '../support/smtp-client.js';
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
    const client = await SmtpClient.connect(server.smtpPort);
    expect((await client.read()).code).toBe(220);
    expect((await client.command('EHLO client.test')).text).toContain('STARTTLS');
    expect((await client.command('STARTTLS')).code).toBe(220);
    await client.startTls('mx.selfsigned.test');
    const certificate = expectDefined(client.peerCertificate(), 'the certificate');
    expect(certificate.subject).toBe('CN=mx.selfsigned.test');
    expect(certificate.subjectAltName).toBe('DNS:mx.selfsigned.test');
    expect(Date.parse(certificate.validTo)).toBeGreaterThan(Date.now());
    expect(certificate.subject).not.toMatch(/localhost/);
    expect((await client.command('EHLO client.test')).code).toBe(250);
    client.destroy();
    // it is not an operator certificate: the certificates screen does not list it
    const admin = await server.adminToken();
    const listed = await server.api('POST', 'user/reloadCertificates', { token: admin });
    expect(listed.body.data?.certificates).toEqual([]);
  });
});
