import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { selfSignedCertificate } from './self-signed.js';

describe('self-signed STARTTLS certificate', () => {
  it('is a valid certificate for the host name, kept 0600 and reused until it nears expiry', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'youju-self-signed-'));
    try {
      const pair = await selfSignedCertificate(dataDir, 'MX.Example.Test');
      const certificate = new X509Certificate(pair.cert);
      expect(certificate.subject).toBe('CN=mx.example.test');
      expect(certificate.subjectAltName).toBe('DNS:mx.example.test');
      expect(certificate.verify(certificate.publicKey)).toBe(true);
      expect(Date.parse(certificate.validTo)).toBeGreaterThan(Date.now() + 300 * 86_400_000);
      expect(certificate.checkPrivateKey((await import('node:crypto')).createPrivateKey(pair.key))).toBe(
        true,
      );
      expect(() => createSecureContext({ key: pair.key, cert: pair.cert })).not.toThrow();
      expect((await stat(join(dataDir, 'self-signed', 'privkey.pem'))).mode & 0o777).toBe(0o600);
      const again = await selfSignedCertificate(dataDir, 'mx.example.test');
      expect(again.cert.equals(pair.cert)).toBe(true);
      const renewed = await selfSignedCertificate(dataDir, 'mx.example.test', Date.now() + 700 * 86_400_000);
      expect(renewed.cert.equals(pair.cert)).toBe(false);
      // every new certificate is well-formed DER (a non-minimal serial once broke 1 in 128)
      for (let i = 0; i < 300; i++) {
        const fresh = await selfSignedCertificate(join(dataDir, String(i)), 'mx.example.test');
        expect(() => createSecureContext({ key: fresh.key, cert: fresh.cert })).not.toThrow();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
