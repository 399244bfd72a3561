import { X509Certificate } from 'node:crypto';
import { request } from 'node:https';
import { connect } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BodyOf, expectOk, parseBody } from '../support/api.js';
import { installCertificate, makeCertificate, type PemPair } from '../support/certificates.js';
import { SmtpClient } from '../support/smtp-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const HOST = 'mx.youju.test';

function fingerprint(pair: PemPair): string {
  return new X509Certificate(pair.cert).fingerprint256;
}

/** Implicit TLS (RFC 8314 section 3.3): the handshake comes first, then the 220 greeting over TLS. */
async function smtps(port: number): Promise<{ client: SmtpClient; greeting: number; fingerprint: string }> {
  const client = await SmtpClient.connectTls(port, HOST);
  return {
    client,
    greeting: (await client.read()).code,
    fingerprint: client.peerCertificate()?.fingerprint256 ?? '',
  };
}

/**
 * GET `/api/<path>` over a fresh HTTPS connection with SNI; returns status, body and the presented
 * certificate (the API helper speaks plain HTTP: what this listener presents is the point here).
 */
function httpsGet<P extends string>(
  port: number,
  path: P,
  options: { token?: string; from?: string } = {},
): Promise<{ status: number; body: BodyOf<P>; fingerprint: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: `/api/${path}`,
        servername: HOST,
        rejectUnauthorized: false,
        agent: false,
        ...(options.from ? { localAddress: options.from } : {}),
        headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
      },
      (response) => {
        const socket = response.socket as TLSSocket;
        const presented = socket.getPeerX509Certificate()?.fingerprint256 ?? '';
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: parseBody(text) as BodyOf<P>,
            fingerprint: presented,
          }),
        );
      },
    );
    req.once('error', reject);
    req.end();
  });
}

describe('SMTPS and HTTPS listeners with the certificate service', () => {
  let server: TestServer;
  let a: PemPair;
  let b: PemPair;

  beforeAll(async () => {
    a = makeCertificate([HOST]);
    b = makeCertificate([HOST]);
    server = await startTestServer({
      env: { MAIL_HOSTNAME: HOST, SMTPS_PORT: '0', HTTPS_PORT: '0' },
      // The listeners refuse to start without a valid certificate, so A is there from the start.
      prepareDataDir: (dataDir) => installCertificate(dataDir, HOST, a),
    });
  });
  afterAll(async () => server?.close());

  it('presents A on both ports, then B after reloadCertificates, keeping an open SMTPS session', async () => {
    const smtpsPort = server.smtpsPort;
    const httpsPort = server.httpsPort;
    if (!smtpsPort || !httpsPort) throw new Error('the SMTPS or HTTPS listener did not start');

    const first = await smtps(smtpsPort);
    expect(first.greeting).toBe(220);
    expect(first.fingerprint).toBe(fingerprint(a));
    expect((await first.client.command('EHLO client.youju.test')).code).toBe(250);

    const before = await httpsGet(httpsPort, 'getVar');
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ error: 0 });
    expect(before.fingerprint).toBe(fingerprint(a));

    await installCertificate(server.dataDir, HOST, b);
    const admin = await server.adminToken();
    const reloaded = await server.api('POST', 'user/reloadCertificates', { token: admin });
    expect(reloaded.body.data?.certificates).toEqual([
      expect.objectContaining({ hostnames: [HOST], status: 'ok' }),
    ]);

    const second = await smtps(smtpsPort);
    expect(second.greeting).toBe(220);
    expect(second.fingerprint).toBe(fingerprint(b));
    const after = await httpsGet(httpsPort, 'getVar');
    expect(after.status).toBe(200);
    expect(after.fingerprint).toBe(fingerprint(b));

    // The session opened before the reload is still there and still answers.
    expect((await first.client.command('NOOP')).code).toBe(250);
    expect((await first.client.command('QUIT')).code).toBe(221);
    expect((await second.client.command('QUIT')).code).toBe(221);
  });

  it('sees the client address over HTTPS as over HTTP (request.ip, onRequest hooks)', async () => {
    const httpsPort = server.httpsPort;
    if (!httpsPort) throw new Error('the HTTPS listener did not start');
    const admin = await server.adminToken();
    const plain = await server.api('GET', 'getVar');
    const secure = await httpsGet(httpsPort, 'getVar');
    expect(secure.status).toBe(plain.status);
    // permissionData is encrypted afresh for each answer; the rest is the same.
    expect(secure.body.settings).toEqual(plain.body.settings);

    // request.ip: the blacklist protects the caller's own address, named in the answer.
    const own = await httpsGet(httpsPort, 'waf/addBlacklistIP?ip=127.0.0.1', { token: admin });
    expect(own.status).toBe(409);
    expect(own.body.msg).toMatch(/127\.0\.0\.1/);

    // The firewall's onRequest hook refuses a banned address on HTTPS too, and only that one.
    expect((await httpsGet(httpsPort, 'getVar', { from: '127.0.0.3' })).status).toBe(200);
    const banned = await server.api('GET', 'waf/addBlacklistIP?ip=127.0.0.3', { token: admin });
    expectOk(banned.body);
    try {
      expect((await httpsGet(httpsPort, 'getVar', { from: '127.0.0.3' })).status).toBe(403);
      expect((await httpsGet(httpsPort, 'getVar')).status).toBe(200);
    } finally {
      await server.app.services.blacklist.remove('127.0.0.3');
    }
  });
});

describe('SMTPS and HTTPS without a valid certificate', () => {
  it('refuses to start both listeners rather than serve a bad certificate', async () => {
    const server = await startTestServer({ env: { MAIL_HOSTNAME: HOST, SMTPS_PORT: '0', HTTPS_PORT: '0' } });
    try {
      expect(server.smtpsPort).toBeNull();
      expect(server.httpsPort).toBeNull();
      // The plain listeners are unaffected.
      expect((await server.api('GET', 'getVar')).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('starts SMTPS, HTTPS, IMAPS and POP3S once a certificate appears, without a restart', async () => {
    const server = await startTestServer({
      env: { MAIL_HOSTNAME: HOST, SMTPS_PORT: '0', HTTPS_PORT: '0' },
      mailClients: {},
    });
    const late: number[] = [];
    try {
      expect([server.smtpsPort, server.httpsPort, server.imapsPort, server.pop3sPort]).toEqual([
        null,
        null,
        null,
        null,
      ]);
      const pair = makeCertificate([HOST]);
      await installCertificate(server.dataDir, HOST, pair);
      expectOk(
        (await server.api('POST', 'user/reloadCertificates', { token: await server.adminToken() })).body,
      );
      const listeners = server.tlsListeners;
      await Promise.all([
        listeners.smtps.started(),
        listeners.https.started(),
        listeners.imaps.started(),
        listeners.pop3s.started(),
      ]);
      const secure = await smtps(server.smtpsPort as number);
      expect(secure.greeting).toBe(220);
      expect(secure.fingerprint).toBe(fingerprint(pair));
      await secure.client.command('QUIT').catch(() => undefined);
      const answer = await httpsGet(server.httpsPort as number, 'getVar');
      expect(answer.status).toBe(200);
      expect(answer.fingerprint).toBe(fingerprint(pair));
      late.push(...[server.smtpsPort, server.httpsPort, server.imapsPort, server.pop3sPort].map(Number));
      for (const port of [server.imapsPort as number, server.pop3sPort as number]) {
        const client = await SmtpClient.connectTls(port, HOST);
        expect(client.peerCertificate()?.fingerprint256).toBe(fingerprint(pair));
        client.destroy();
      }
    } finally {
      await server.close();
    }
    // Closing stopped the listeners started late too: nothing answers on their ports any more.
    for (const port of late) {
      const refused = await new Promise<string>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        socket.once('connect', () => {
          socket.destroy();
          resolve('connected');
        });
        socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      });
      expect(refused).toBe('ECONNREFUSED');
    }
  });
});
