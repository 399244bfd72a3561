import { X509Certificate } from 'node:crypto';
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { connect } from 'node:tls';
import type { Certificate } from '@youju/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForTxtRecord } from '../../src/modules/certificates/acme-dns.js';
import { expectOk } from '../support/api.js';
import { installCertificate, makeCertificate } from '../support/certificates.js';
import {
  dig,
  generateTsigKey,
  type RunningDnsServer,
  startBind,
  type TsigKeyFile,
} from '../support/dns-servers.js';
import { addDomain, createUser, uniqueUsername } from '../support/fixtures.js';
import { pebbleInstalled, type RunningPebble, startPebble } from '../support/pebble.js';
import { freePort } from '../support/ports.js';
import { SmtpClient } from '../support/smtp-client.js';
import { startTestServer, stopAll, type TestServer, testEngine } from '../support/test-server.js';
import { waitFor } from '../support/wait-for.js';

// BIND's test zone has `ns1.<zone> A 127.0.0.1`: Pebble resolves the HTTP-01 host to loopback there.
const ZONE = 'acme.youju.test';
const HOST = `ns1.${ZONE}`;
const HOUR_MS = 3_600_000;

if (!pebbleInstalled) {
  console.warn('ACME tests skipped: /usr/bin/pebble is missing (Debian package "pebble")');
}

async function certificatesOf(server: TestServer, token: string): Promise<Certificate[]> {
  const { body } = await server.api('GET', 'user/getCertificates', { token });
  expectOk(body);
  return body.data.certificates;
}

async function managed(server: TestServer, token: string, hostname: string): Promise<Certificate> {
  const found = (await certificatesOf(server, token)).find((entry) => entry.directory === hostname);
  if (!found) throw new Error(`no certificate entry for ${hostname}`);
  return found;
}

/** EHLO, STARTTLS (RFC 3207) with SNI; the certificate the server presented. */
async function smtpCertificate(port: number, servername: string): Promise<X509Certificate> {
  const client = await SmtpClient.connect(port);
  expect((await client.read()).code).toBe(220);
  expect((await client.command('EHLO client.youju.test')).text).toContain('STARTTLS');
  expect((await client.command('STARTTLS')).code).toBe(220);
  await client.startTls(servername);
  const raw = client.peerCertificate()?.raw;
  await client.command('QUIT').catch(() => undefined);
  if (!raw) throw new Error('no peer certificate');
  return new X509Certificate(raw);
}

/** Implicit TLS (IMAPS) with SNI; the certificate the server presented. */
function tlsCertificate(port: number, servername: string): Promise<X509Certificate> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, servername, rejectUnauthorized: false }, () => {
      const raw = socket.getPeerCertificate().raw;
      socket.destroy();
      resolve(new X509Certificate(raw));
    });
    socket.on('error', reject);
  });
}

/** A raw HTTP request to the challenge listener: status and body. */
function challengeGet(
  port: number,
  path: string,
  method = 'GET',
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, path, method, headers }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe.skipIf(!pebbleInstalled)('ACME against Pebble on loopback', () => {
  let key: TsigKeyFile;
  let bind: RunningDnsServer;
  let pebble: RunningPebble;

  beforeAll(async () => {
    key = generateTsigKey('youju-acme');
    bind = await startBind(ZONE, key);
    pebble = await startPebble({ dnsServer: bind.address, httpPort: await freePort() });
  });
  afterAll(() => stopAll(pebble, bind));

  describe('HTTP-01', () => {
    let server: TestServer;
    let admin: string;
    let shortLived: string;

    beforeAll(async () => {
      // A 10-day certificate is there at start (an operator's, or an earlier ACME one): renewal is due.
      const pair = makeCertificate([HOST], 10);
      shortLived = new X509Certificate(pair.cert).fingerprint256;
      server = await startTestServer({
        env: {
          MAIL_HOSTNAME: HOST,
          ACME_EMAIL: 'postmaster@acme.youju.test',
          ACME_DIRECTORY_URL: pebble.directoryUrl,
          ACME_CA_BUNDLE: pebble.caBundle,
          ACME_HTTP_PORT: String(pebble.httpPort),
        },
        prepareDataDir: (dataDir) => installCertificate(dataDir, HOST, pair),
        mailClients: {},
      });
      admin = await server.adminToken();
    });
    afterAll(() => stopAll(server));

    it('renews the near-expiry certificate at start and serves it on SMTP and IMAPS without a restart', async () => {
      expect(server.acmeChallengePort).toBe(pebble.httpPort);
      const entry = await waitFor(
        async () => {
          const found = await managed(server, admin, HOST);
          return found.acme?.state === 'valid' || found.acme?.state === 'failed' ? found : null;
        },
        { timeoutMs: 60_000, intervalMs: 200, what: 'the ACME order at start' },
      );
      expect(entry.acme?.lastError).toBeNull();
      expect(entry).toMatchObject({ status: 'ok', source: 'acme', hostnames: [HOST] });
      expect(entry.issuer).toMatch(/Pebble/);
      // The next renewal is 30 days before the new expiry.
      const notAfter = Date.parse(entry.notAfter ?? '');
      expect(Date.parse(entry.acme?.nextRenewalAt ?? '')).toBe(notAfter - 30 * 24 * HOUR_MS);

      const smtp = await smtpCertificate(server.smtpPort, HOST);
      expect(smtp.fingerprint256).not.toBe(shortLived);
      expect(smtp.issuer).toMatch(/Pebble/);
      expect(smtp.subjectAltName).toContain(`DNS:${HOST}`);
      // IMAPS started with the 10-day certificate and follows the reload too.
      const imaps = await tlsCertificate(server.imapsPort as number, HOST);
      expect(imaps.fingerprint256).toBe(smtp.fingerprint256);
    });

    it('writes the certbot layout, the key and the account key readable by the owner only', async () => {
      const folder = join(server.dataDir, 'certs', HOST);
      const fullchain = await readFile(join(folder, 'fullchain.pem'), 'utf8');
      const cert = await readFile(join(folder, 'cert.pem'), 'utf8');
      const chain = await readFile(join(folder, 'chain.pem'), 'utf8');
      expect(fullchain).toBe(cert + chain);
      expect(new X509Certificate(chain).subject).toMatch(/Pebble/);
      expect(statSync(join(folder, 'privkey.pem')).mode & 0o777).toBe(0o600);
      expect(statSync(join(server.dataDir, 'acme', 'account.key')).mode & 0o777).toBe(0o600);
    });

    it('renews now on request (administrators only, rate-limited)', async () => {
      const before = (await smtpCertificate(server.smtpPort, HOST)).fingerprint256;
      const anonymous = await server.api('POST', 'user/renewCertificates', {});
      expect(anonymous.body.error).not.toBe(0);
      // A logged-in user who is not an administrator: 403, and no attempt starts.
      const user = await createUser(server, uniqueUsername('acmeuser'));
      const forbidden = await server.api('POST', 'user/renewCertificates', { token: user.token });
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.error).toBe(403);
      expect(forbidden.body.msg).toMatch(/[\u4e00-\u9fff]/);
      expect((await managed(server, admin, HOST)).acme?.state).not.toBe('renewing');

      const started = await server.api('POST', 'user/renewCertificates', { token: admin });
      expectOk(started.body);
      await server.app.services.acme.settled();
      const after = await smtpCertificate(server.smtpPort, HOST);
      expect(after.fingerprint256).not.toBe(before);
      expect(after.issuer).toMatch(/Pebble/);
      expect((await managed(server, admin, HOST)).acme).toMatchObject({ state: 'valid', lastError: null });

      // Three in ten minutes, then 429: the CA limits issuance too.
      for (let call = 0; call < 2; call += 1) {
        expectOk((await server.api('POST', 'user/renewCertificates', { token: admin })).body);
        await server.app.services.acme.settled();
      }
      const refused = await server.api('POST', 'user/renewCertificates', { token: admin });
      expect(refused.status).toBe(429);
      expect(refused.body.msg).toContain('立即续期过于频繁');
      // The limit is per administrator: another one is not locked out by the first one's clicks.
      const other = await createUser(server, uniqueUsername('acmeadmin'), { role: 'admin' });
      expectOk((await server.api('POST', 'user/renewCertificates', { token: other.token })).body);
      await server.app.services.acme.settled();
    });

    it('does not renew a certificate that has more than 30 days left', async () => {
      const before = await managed(server, admin, HOST);
      await server.app.services.acme.stop();
      await server.app.services.acme.start();
      await new Promise((resolve) => setTimeout(resolve, 0));
      await server.app.services.acme.settled();
      const after = await managed(server, admin, HOST);
      expect(after.acme?.lastAttemptAt).toBe(before.acme?.lastAttemptAt);
    });

    it('answers only challenge paths with known tokens on the HTTP-01 listener', async () => {
      const port = server.acmeChallengePort as number;
      for (const path of [
        '/',
        '/.well-known/acme-challenge/',
        '/.well-known/acme-challenge/unknown-token-aaaaaaaaaaaa',
        '/.well-known/acme-challenge/../../../etc/passwd',
        '/.well-known/acme-challenge/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
        '/api/user/getCertificates',
        `/.well-known/acme-challenge/${'a'.repeat(5000)}`,
      ]) {
        const answer = await challengeGet(port, path);
        expect([404, 431, 414]).toContain(answer.status);
        expect(answer.body).not.toContain('root:');
      }
      expect((await challengeGet(port, '/.well-known/acme-challenge/abc', 'POST')).status).toBe(404);
      // Oversized headers are refused before any handler runs.
      const huge = await challengeGet(port, '/', 'GET', { 'X-Junk': 'x'.repeat(8000) }).catch(() => ({
        status: 431,
        body: '',
      }));
      expect(huge.status).toBe(431);
    });
  });

  describe('first issuance into an empty certs folder', () => {
    let server: TestServer;

    beforeAll(async () => {
      // No certificate at all at start: SMTPS, IMAPS and POP3S cannot listen yet.
      server = await startTestServer({
        env: {
          MAIL_HOSTNAME: HOST,
          SMTPS_PORT: '0',
          ACME_EMAIL: 'postmaster@acme.youju.test',
          ACME_DIRECTORY_URL: pebble.directoryUrl,
          ACME_CA_BUNDLE: pebble.caBundle,
          ACME_HTTP_PORT: String(pebble.httpPort),
        },
        mailClients: {},
      });
    });
    afterAll(() => stopAll(server));

    it('starts SMTPS, IMAPS and POP3S with the issued certificate, without a restart', async () => {
      // They may already be up when the order was quick; what matters is that they come up.
      const listeners = server.tlsListeners;
      const [smtps, imaps, pop3s] = await Promise.all([
        listeners.smtps.started(),
        listeners.imaps.started(),
        listeners.pop3s.started(),
      ]);
      expect(smtps && imaps && pop3s).toBeTruthy();
      const entry = await managed(server, await server.adminToken(), HOST);
      expect(entry).toMatchObject({ status: 'ok', source: 'acme' });
      for (const port of [smtps?.port, imaps?.port, pop3s?.port]) {
        const presented = await tlsCertificate(port as number, HOST);
        expect(presented.issuer).toMatch(/Pebble/);
        expect(presented.subjectAltName).toContain(`DNS:${HOST}`);
      }
    });
  });

  // Behind a load balancer the CA's GET may reach a process that did not order: on PostgreSQL the
  // pending tokens are in the acme_challenges table, which every process's listener reads.
  describe.skipIf(testEngine !== 'postgres')('two processes on one PostgreSQL', () => {
    let bystander: TestServer;
    let orderer: TestServer;

    beforeAll(async () => {
      // The bystander's listener is the one Pebble connects to. Its own CA is unreachable: its one
      // attempt at start fails at once and backs off an hour, so it never orders from Pebble.
      bystander = await startTestServer({
        env: {
          MAIL_HOSTNAME: HOST,
          ACME_EMAIL: 'postmaster@acme.youju.test',
          ACME_DIRECTORY_URL: `https://127.0.0.1:${await freePort()}/dir`,
          ACME_HTTP_PORT: String(pebble.httpPort),
        },
      });
      const bystanderAdmin = await bystander.adminToken();
      await waitFor(async () => (await managed(bystander, bystanderAdmin, HOST)).acme?.state === 'failed', {
        timeoutMs: 30_000,
        what: "the bystander's failed attempt",
      });
      // The orderer shares the database (not the data directory); its own listener is elsewhere.
      orderer = await startTestServer({
        env: {
          DATABASE_URL: bystander.config.databaseUrl ?? '',
          MAIL_HOSTNAME: HOST,
          ACME_EMAIL: 'postmaster@acme.youju.test',
          ACME_DIRECTORY_URL: pebble.directoryUrl,
          ACME_CA_BUNDLE: pebble.caBundle,
          ACME_HTTP_PORT: String(await freePort()),
        },
      });
    });
    afterAll(() => stopAll(orderer, bystander));

    it('issues with the challenge answered by the process that did not order', async () => {
      expect(orderer.acmeChallengePort).not.toBe(pebble.httpPort);
      expect(bystander.acmeChallengePort).toBe(pebble.httpPort);
      const admin = await orderer.adminToken();
      const entry = await waitFor(
        async () => {
          const found = await managed(orderer, admin, HOST);
          return found.acme?.state === 'valid' || found.acme?.state === 'failed' ? found : null;
        },
        { timeoutMs: 60_000, intervalMs: 200, what: 'the order of the second process' },
      );
      expect(entry.acme?.lastError).toBeNull();
      expect(entry.issuer).toMatch(/Pebble/);
      // The answered tokens are gone from the table once the order is over.
      const left = await orderer.app.database.db.selectFrom('acme_challenges').selectAll().execute();
      expect(left).toEqual([]);
      // The bystander never ordered: its state is still the one failure at start.
      const bystanderState = await managed(bystander, await bystander.adminToken(), HOST);
      expect(bystanderState.acme?.state).toBe('failed');
    });
  });

  describe('failure and backoff', () => {
    let server: TestServer;
    let admin: string;
    let silent: Server;

    beforeAll(async () => {
      // Nothing listens on this port: the CA is unreachable.
      const closed = await freePort();
      server = await startTestServer({
        env: {
          MAIL_HOSTNAME: HOST,
          ACME_EMAIL: 'postmaster@acme.youju.test',
          ACME_DIRECTORY_URL: `https://127.0.0.1:${closed}/dir`,
          ACME_CA_BUNDLE: pebble.caBundle,
          ACME_HTTP_PORT: '0',
          ACME_CHALLENGE: 'dns-01',
        },
      });
      admin = await server.adminToken();
    });
    const silentSockets = new Set<Socket>();
    afterAll(async () => {
      for (const socket of silentSockets) socket.destroy();
      await stopAll(
        server,
        silent ? { close: () => new Promise<void>((done) => silent.close(() => done())) } : null,
      );
    });

    it('records the failure in Chinese and retries after 1 h, then 2 h', async () => {
      const first = await waitFor(
        async () => {
          const found = await managed(server, admin, HOST);
          return found.acme?.state === 'failed' ? found : null;
        },
        { timeoutMs: 30_000, what: 'the failed attempt at start' },
      );
      expect(first).toMatchObject({ status: 'missing', source: 'acme', notAfter: null });
      expect(first.acme?.lastError).toContain('无法连接 ACME 服务器');
      const attempted = Date.parse(first.acme?.lastAttemptAt ?? '');
      expect(Date.parse(first.acme?.nextRenewalAt ?? '') - attempted).toBeGreaterThanOrEqual(HOUR_MS - 5000);
      expect(Date.parse(first.acme?.nextRenewalAt ?? '') - attempted).toBeLessThanOrEqual(HOUR_MS + 5000);

      expectOk((await server.api('POST', 'user/renewCertificates', { token: admin })).body);
      await server.app.services.acme.settled();
      const second = await managed(server, admin, HOST);
      const again = Date.parse(second.acme?.lastAttemptAt ?? '');
      expect(Date.parse(second.acme?.nextRenewalAt ?? '') - again).toBeGreaterThanOrEqual(2 * HOUR_MS - 5000);
      // The state survives a restart of the scheduler (DATA_DIR/acme/state.json).
      const saved = JSON.parse(await readFile(join(server.dataDir, 'acme', 'state.json'), 'utf8'));
      expect(saved.failures).toBe(2);
    });

    it('does not hang on close while an order waits on a CA that never answers', async () => {
      // A TCP listener that accepts and says nothing: the TLS handshake would wait for the 30 s timeout.
      silent = createServer((socket) => {
        silentSockets.add(socket);
      });
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
      const address = silent.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const stuck = await startTestServer({
        env: {
          MAIL_HOSTNAME: HOST,
          ACME_EMAIL: 'postmaster@acme.youju.test',
          ACME_DIRECTORY_URL: `https://127.0.0.1:${port}/dir`,
          ACME_HTTP_PORT: '0',
          ACME_CHALLENGE: 'dns-01',
        },
      });
      const token = await stuck.adminToken();
      await waitFor(async () => (await managed(stuck, token, HOST)).acme?.state === 'renewing', {
        what: 'the order to be in flight',
      });
      // The order is cut short: closing returns well before the request's own 30 s timeout would end
      // it (a bound on a hang, not a performance figure).
      const closing = Date.now();
      await stuck.close();
      expect(Date.now() - closing).toBeLessThan(10_000);
    });
  });

  describe('DNS-01 through the domain’s RFC 2136 settings (BIND)', () => {
    let server: TestServer;
    let admin: string;
    const host = `mail.${ZONE}`;

    beforeAll(async () => {
      server = await startTestServer({
        env: {
          MAIL_HOSTNAME: host,
          ACME_EMAIL: 'postmaster@acme.youju.test',
          ACME_HOSTNAMES: `*.${ZONE}`,
          ACME_DIRECTORY_URL: pebble.directoryUrl,
          ACME_CA_BUNDLE: pebble.caBundle,
          ACME_HTTP_PORT: '0',
          ACME_CHALLENGE: 'dns-01',
          ACME_RETRY_BASE_MS: String(HOUR_MS),
          // The zone's NS (ns1.<zone>, 127.0.0.1) is found through BIND: the propagation check asks it.
          DNS_SERVERS: bind.address,
        },
      });
      admin = await server.adminToken();
    });
    afterAll(() => stopAll(server));

    it('fails without the domain, then issues a wildcard certificate once the provider is set', async () => {
      const first = await waitFor(
        async () => {
          const found = await managed(server, admin, host);
          return found.acme?.state === 'failed' ? found : null;
        },
        { timeoutMs: 30_000, what: 'the attempt at start' },
      );
      expect(first.acme?.lastError).toContain('不属于本系统中的任何域名');

      const domainId = (await addDomain(server, admin, ZONE)).id;
      expectOk(
        (
          await server.api('POST', 'user/setDnsProvider', {
            token: admin,
            body: {
              id: domainId,
              server: bind.address,
              keyName: key.name,
              algorithm: 'hmac-sha256',
              secret: key.secret,
            },
          })
        ).body,
      );
      expectOk((await server.api('POST', 'user/renewCertificates', { token: admin })).body);
      await server.app.services.acme.settled();
      const issued = await managed(server, admin, host);
      expect(issued.acme).toMatchObject({ state: 'valid', lastError: null, challenge: 'dns-01' });
      expect(issued.hostnames.sort()).toEqual([`*.${ZONE}`, host].sort());
      const smtp = await smtpCertificate(server.smtpPort, host);
      expect(smtp.issuer).toMatch(/Pebble/);
      expect(smtp.subjectAltName).toContain(`DNS:*.${ZONE}`);
    });

    it('waits for the TXT record at the authoritative servers, and gives up after the bound', async () => {
      const [host, port] = bind.address.split(':');
      const primary = { host: host as string, port: Number(port) };
      // A record nobody published: the wait ends with the servers named, in Chinese.
      const started = Date.now();
      await expect(
        waitForTxtRecord({
          name: `_acme-challenge.never.${ZONE}`,
          value: 'not-there',
          zone: ZONE,
          primary,
          resolvers: [bind.address],
          timeoutMs: 3000,
          pollMs: 500,
        }),
      ).rejects.toThrow(/未出现在权威服务器 127\.0\.0\.1:\d+ 上/);
      // A bound on a hang, not a timing assertion.
      expect(Date.now() - started).toBeLessThan(30_000);
      // BIND's SOA and NS are there: a record it serves is seen at once.
      const soa = dig(Number(port), ZONE, 'NS');
      expect(soa.join(' ')).toContain(`ns1.${ZONE}`);
    });
  });
});
