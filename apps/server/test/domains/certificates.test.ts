import { X509Certificate } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connect, createServer, type Server, type TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk } from '../support/api.js';
import {
  installCertificate,
  makeCertificate,
  makeExpiredCertificate,
  type PemPair,
} from '../support/certificates.js';
import { createUser } from '../support/fixtures.js';
import { startTestServerAsAdmin, type TestServer } from '../support/test-server.js';

const HOST = 'mx.youju.test';

function fingerprint(pem: string): string {
  return new X509Certificate(pem).fingerprint256;
}

/** Opens a TLS connection with SNI `servername` and returns the socket and the certificate it saw. */
function tlsConnect(port: number, servername: string): Promise<{ socket: TLSSocket; fingerprint: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', servername, rejectUnauthorized: false }, () => {
      resolve({ socket, fingerprint: socket.getPeerX509Certificate()?.fingerprint256 ?? '' });
    });
    socket.once('error', reject);
  });
}

function echo(socket: TLSSocket, text: string): Promise<string> {
  return new Promise((resolve) => {
    socket.once('data', (chunk: Buffer) => resolve(chunk.toString()));
    socket.write(text);
  });
}

describe('TLS certificates from DATA_DIR/certs', () => {
  let server: TestServer;
  let admin: string;
  let tlsServer: Server;
  let tlsPort: number;
  let a: PemPair;
  let b: PemPair;

  beforeAll(async () => {
    ({ server, admin } = await startTestServerAsAdmin({ env: { MAIL_HOSTNAME: HOST } }));
    a = makeCertificate([HOST, 'smtp.youju.test']);
    b = makeCertificate([HOST]);
    await installCertificate(server.dataDir, HOST, a);
    await server.api('POST', 'user/reloadCertificates', { token: admin });

    // A TLS listener built only from the service: SNI per handshake, default swapped on reload.
    const { certificates } = server.app.services;
    tlsServer = createServer(
      { SNICallback: certificates.sniCallback, ...certificates.defaultCertificate() },
      (socket) => socket.on('data', (chunk) => socket.write(`echo:${chunk}`)),
    );
    certificates.onReload(() => {
      const pair = certificates.defaultCertificate();
      if (pair) tlsServer.setSecureContext(pair);
    });
    await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', () => resolve()));
    const address = tlsServer.address();
    tlsPort = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(async () => {
    await new Promise((resolve) => tlsServer?.close(resolve));
    await server?.close();
  });

  it('reports host names from the SAN, expiry and status', async () => {
    const { body } = await server.api('GET', 'user/getCertificates', { token: admin });
    expectOk(body);
    expect(body.data.certificates).toEqual([
      expect.objectContaining({
        directory: HOST,
        hostnames: [HOST, 'smtp.youju.test'],
        notAfter: new Date(new X509Certificate(a.cert).validTo).toISOString(),
        status: 'ok',
      }),
    ]);
  });

  it('serves A, then B after the files change and reloadCertificates, without dropping an open connection', async () => {
    const first = await tlsConnect(tlsPort, HOST);
    expect(first.fingerprint).toBe(fingerprint(a.cert));
    const bySan = await tlsConnect(tlsPort, 'smtp.youju.test');
    expect(bySan.fingerprint).toBe(fingerprint(a.cert));
    bySan.socket.destroy();

    await installCertificate(server.dataDir, HOST, b);
    // Until the reload, the old certificate stays in use.
    const stale = await tlsConnect(tlsPort, HOST);
    expect(stale.fingerprint).toBe(fingerprint(a.cert));
    stale.socket.destroy();

    const reloaded = await server.api('POST', 'user/reloadCertificates', { token: admin });
    expect(reloaded.body.data?.certificates[0]).toMatchObject({ hostnames: [HOST], status: 'ok' });
    const second = await tlsConnect(tlsPort, HOST);
    expect(second.fingerprint).toBe(fingerprint(b.cert));
    // No SNI at all: the default context was swapped too.
    const noSni = await new Promise<string>((resolve, reject) => {
      const socket = connect({ port: tlsPort, host: '127.0.0.1', rejectUnauthorized: false }, () => {
        resolve(socket.getPeerX509Certificate()?.fingerprint256 ?? '');
        socket.destroy();
      });
      socket.once('error', reject);
    });
    expect(noSni).toBe(fingerprint(b.cert));
    expect(await echo(first.socket, 'still here')).toBe('echo:still here');
    first.socket.destroy();
    second.socket.destroy();
  });

  it('reports expired and mismatched pairs and never serves them', async () => {
    await installCertificate(
      server.dataDir,
      'old.youju.test',
      await makeExpiredCertificate('old.youju.test'),
    );
    const other = makeCertificate(['mixed.youju.test']);
    await installCertificate(server.dataDir, 'mixed.youju.test', { cert: other.cert, key: b.key });
    await installCertificate(server.dataDir, 'broken.youju.test', { cert: 'not a certificate', key: b.key });
    await writeFile(join(server.dataDir, 'certs', 'README'), 'not a folder');

    const { body } = await server.api('POST', 'user/reloadCertificates', { token: admin });
    expectOk(body);
    const byFolder = Object.fromEntries(body.data.certificates.map((c) => [c.directory, c]));
    expect(byFolder['old.youju.test']).toMatchObject({
      status: 'expired',
      notAfter: '2021-01-01T00:00:00.000Z',
    });
    expect(byFolder['old.youju.test']?.detail).toContain('过期');
    expect(byFolder['mixed.youju.test']).toMatchObject({
      status: 'mismatch',
      hostnames: ['mixed.youju.test'],
    });
    expect(byFolder['mixed.youju.test']?.detail).toContain('不匹配');
    expect(byFolder['broken.youju.test']).toMatchObject({ status: 'invalid', notAfter: null });
    expect(byFolder[HOST]?.status).toBe('ok');

    const { certificates } = server.app.services;
    expect(certificates.secureContextFor('old.youju.test')).toBeNull();
    expect(certificates.secureContextFor('mixed.youju.test')).toBeNull();
    expect(certificates.secureContextFor(HOST)).not.toBeNull();
    // An unknown name falls back to the default certificate (B), never to the expired one.
    const fallback = await tlsConnect(tlsPort, 'old.youju.test');
    expect(fallback.fingerprint).toBe(fingerprint(b.cert));
    fallback.socket.destroy();
  });

  it('lets only administrators list and reload certificates', async () => {
    const user = await createUser(server, 'cert-user');
    for (const [method, path] of [
      ['POST', 'user/reloadCertificates'],
      ['GET', 'user/getCertificates'],
    ] as const) {
      const denied = await server.api(method, path, { token: user.token });
      expect(denied.status, path).toBe(403);
      expect(denied.body.error).toBe(403);
      const anonymous = await server.api(method, path);
      expect(anonymous.body.error).toBe(302);
    }
  });
});
