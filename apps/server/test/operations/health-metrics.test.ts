import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { expectOk } from '../support/api.js';
import { createAddress, createUserWithDomain, type MailWorld } from '../support/fixtures.js';
import { SmtpClient, sendMail, simpleMessage } from '../support/smtp-client.js';
import {
  createPostgresDatabase,
  startTestServer,
  type TestServer,
  testEngine,
} from '../support/test-server.js';
import { sleep, waitFor } from '../support/wait-for.js';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';

let server: TestServer;
let world: MailWorld;
let webRoot: string;

beforeAll(async () => {
  // A web client, so that its history fallback (index.html for unknown paths) is in place.
  webRoot = await mkdtemp(join(tmpdir(), 'youju-web-'));
  await writeFile(join(webRoot, 'index.html'), '<!doctype html><title>Youju</title>');
  server = await startTestServer({ env: { METRICS_TOKEN, QUEUE_POLL_MS: '100' }, webRoot });
  world = await createUserWithDomain(server, 'metrics');
});
afterAll(async () => {
  await server.close();
  await rm(webRoot, { recursive: true, force: true });
});

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.baseUrl}${path}`, { headers });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

async function scrape(): Promise<string> {
  const response = await get('/metrics');
  expect(response.status).toBe(200);
  return response.text;
}

/** The value of one series in the text exposition format; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => present[key] === value)) return Number(match[3]);
  }
  return undefined;
}

describe('probes', () => {
  it('/healthz answers 200 while the process runs', async () => {
    const response = await get('/healthz');
    expect(response.status).toBe(200);
    expect(JSON.parse(response.text)).toEqual({ status: 'ok' });
  });

  it('/readyz answers 200 with the database, the SMTP listener and the disk checked', async () => {
    const response = await get('/readyz');
    expect(response.status, response.text).toBe(200);
    const body = JSON.parse(response.text);
    expect(body).toMatchObject({
      status: 'ready',
      failed: [],
      checks: { database: { ok: true }, smtp: { ok: true }, disk: { ok: true } },
    });
    expect(body.checks.disk.detail).toMatch(/MiB free/);
  });

  it('the web client history fallback does not swallow the probes', async () => {
    expect((await get('/some/client/route')).type).toMatch(/text\/html/);
    for (const path of ['/healthz', '/readyz']) expect((await get(path)).type).toMatch(/application\/json/);
    expect((await get('/metrics')).type).toMatch(/text\/plain/);
  });

  it('/readyz answers 503 naming the SMTP listener and then the database when they are gone', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'youju-ready-'));
    const postgres = testEngine === 'postgres' ? await createPostgresDatabase() : null;
    const config = loadConfig(
      {
        DATA_DIR: dataDir,
        MAIL_HOSTNAME: 'mx.youju.test',
        ...(postgres ? { DATABASE_URL: postgres.url } : {}),
      },
      { logLevel: 'silent' },
    );
    // buildApp alone starts no SMTP listener: such a process takes no mail, so it is not ready.
    const app = await buildApp(config, { logger: false });
    try {
      const withoutSmtp = await app.inject({ method: 'GET', url: '/readyz' });
      expect(withoutSmtp.statusCode).toBe(503);
      expect(withoutSmtp.json()).toMatchObject({
        status: 'not ready',
        failed: ['smtp'],
        checks: { database: { ok: true }, smtp: { ok: false }, disk: { ok: true } },
      });

      // The database goes away under the running app: on PostgreSQL it is dropped (its connections
      // terminated, new ones refused); on SQLite the handle is destroyed (every query fails).
      if (postgres) await postgres.drop();
      else await app.database.db.destroy();
      // Past the blacklist's cache (firewall-service.ts), which the probes must not depend on.
      await sleep(1_100);
      const withoutDatabase = await app.inject({ method: 'GET', url: '/readyz' });
      expect(withoutDatabase.statusCode).toBe(503);
      const body = withoutDatabase.json();
      expect(body.failed).toContain('database');
      expect(body.checks.database.ok).toBe(false);
      expect(body.checks.database.detail).not.toBe('');
      // Liveness does not depend on the database, nor do the metrics (less the queue depth).
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      const metrics = await app.inject({ method: 'GET', url: '/metrics' });
      expect(metrics.statusCode, metrics.body).toBe(200);
      expect(metrics.body).toContain('process_resident_memory_bytes');
      expect(sample(metrics.body, 'youju_outbound_queue_depth', { status: 'queued' })).toBeUndefined();
    } finally {
      // Closing an app whose database is gone may wait on connections that never come back.
      await Promise.race([app.close().catch(() => {}), sleep(5_000)]);
      await postgres?.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('/metrics', () => {
  it('serves the Prometheus text format with the contract metrics to a loopback client', async () => {
    const response = await get('/metrics');
    expect(response.status).toBe(200);
    expect(response.type).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const name of [
      'youju_smtp_messages_total',
      'youju_smtp_connections',
      'youju_outbound_queue_depth',
      'youju_delivery_attempts_total',
      'youju_http_request_duration_seconds',
      'youju_webhook_deliveries_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(response.text).toContain(`# TYPE ${name} `);
    }
    expect(sample(response.text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    // Nothing was delivered on this server: declared from the start, and zero.
    expect(sample(response.text, 'youju_webhook_deliveries_total', { result: 'delivered' })).toBe(0);
    for (const status of ['queued', 'sending', 'retrying']) {
      expect(sample(response.text, 'youju_outbound_queue_depth', { status })).toBeGreaterThanOrEqual(0);
    }
    const pool = sample(response.text, 'youju_db_pool_connections', { state: 'total' });
    if (testEngine === 'postgres') expect(pool).toBeGreaterThan(0);
    else expect(pool).toBeUndefined();
  });

  it('counts SMTP transactions by their reply to DATA, and open SMTP sessions', async () => {
    const box = await createAddress(server, world);
    const before = await scrape();
    const stored = await sendMail(server.smtpPort, {
      to: [box.address],
      content: simpleMessage(box.address, 'metrics', 'hello'),
    });
    expect(stored.data?.code).toBe(250);
    // A bare CR inside a line is a smuggling pattern (protocols/smtp/data-guard.ts): 554.
    const rejected = await sendMail(server.smtpPort, {
      to: [box.address],
      content: Buffer.from(`To: ${box.address}\r\nSubject: bare\r\n\r\nfirst\rsecond\r\n`),
    });
    expect(rejected.data?.code).toBe(554);

    const client = await SmtpClient.connect(server.smtpPort);
    try {
      expect((await client.read()).code).toBe(220);
      const after = await scrape();
      const delta = (result: string) =>
        (sample(after, 'youju_smtp_messages_total', { result }) ?? 0) -
        (sample(before, 'youju_smtp_messages_total', { result }) ?? 0);
      expect(delta('stored')).toBe(1);
      expect(delta('rejected')).toBe(1);
      expect(delta('temp_failed')).toBe(0);
      expect(sample(after, 'youju_smtp_connections')).toBeGreaterThanOrEqual(1);
    } finally {
      await client.quit();
    }
  });

  it('counts outbound delivery attempts', async () => {
    const from = await createAddress(server, world);
    const to = await createAddress(server, world);
    const before = sample(await scrape(), 'youju_delivery_attempts_total', { result: 'delivered' }) ?? 0;
    const sent = await server.api('POST', 'user/sendEmail', {
      token: world.userToken,
      body: { from: from.address, to: [to.address], subject: '指标', text: '投递计数' },
    });
    expectOk(sent.body);
    await waitFor(
      async () => {
        const now = sample(await scrape(), 'youju_delivery_attempts_total', { result: 'delivered' }) ?? 0;
        return now > before ? now : undefined;
      },
      { timeoutMs: 10_000, what: 'the delivery attempt to be counted' },
    );
  });

  it('times HTTP requests by route pattern and status class, never by raw URL', async () => {
    const series = { method: 'GET', route: '/api/user/getVersion', status_class: '2xx' };
    const before = sample(await scrape(), 'youju_http_request_duration_seconds_count', series) ?? 0;
    for (let index = 0; index < 2; index++) {
      expectOk((await server.api('GET', 'user/getVersion', { token: world.userToken })).body);
    }
    await server.api('GET', 'user/raw/987654321?x=secret-query', { token: world.userToken });
    await get('/api/no-such-call/123456789');
    const after = await scrape();
    expect(sample(after, 'youju_http_request_duration_seconds_count', series)).toBe(before + 2);
    expect(
      sample(after, 'youju_http_request_duration_seconds_bucket', { ...series, le: '+Inf' }),
    ).toBeGreaterThanOrEqual(before + 2);
    expect(after).toContain('route="/api/user/raw/:id"');
    expect(after).toContain('route="unmatched"');
    expect(after).not.toContain('987654321');
    expect(after).not.toContain('123456789');
    expect(after).not.toContain('secret-query');
  });

  it('refuses other clients with 403 unless they bring METRICS_TOKEN', async () => {
    const remote = { method: 'GET' as const, url: '/metrics', remoteAddress: '203.0.113.7' };
    const anonymous = await server.app.inject(remote);
    expect(anonymous.statusCode).toBe(403);
    expect(anonymous.json().msg).toMatch(/监控指标/);
    const wrong = await server.app.inject({ ...remote, headers: { authorization: 'Bearer not-the-token' } });
    expect(wrong.statusCode).toBe(403);
    const right = await server.app.inject({
      ...remote,
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(right.statusCode).toBe(200);
    expect(right.body).toContain('youju_smtp_messages_total');
    // Through a reverse proxy on this machine that is not a trusted proxy: not a loopback client.
    const proxied = await get('/metrics', { 'x-forwarded-for': '198.51.100.4' });
    expect(proxied.status).toBe(403);
    // The probes stay open to anyone, without the details of the checks.
    expect((await server.app.inject({ ...remote, url: '/healthz' })).statusCode).toBe(200);
    const ready = await server.app.inject({ ...remote, url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().checks).toEqual({ database: { ok: true }, smtp: { ok: true }, disk: { ok: true } });
  });

  it('keeps a registry per app: a second app in this process counts on its own', async () => {
    const other = await startTestServer({ initAdmin: false });
    try {
      const text = (await fetch(`${other.baseUrl}/metrics`).then((response) => response.text())) as string;
      expect(sample(text, 'youju_smtp_messages_total', { result: 'stored' })).toBe(0);
      expect(sample(await scrape(), 'youju_smtp_messages_total', { result: 'stored' })).toBeGreaterThan(0);
    } finally {
      await other.close();
    }
  });
});
