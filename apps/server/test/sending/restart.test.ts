import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, testEngine } from '../support/test-server.js';
import { startRecordingSmtp, waitFor } from './sending-helpers.js';

/**
 * The real program (`node apps/server/dist/server.js`) is killed with SIGKILL while a delivery is
 * in the queue: once mid-transaction at the relay (the row is "sending" under a lease), once
 * between retries (the row is "retrying"). After a restart on the same data, each message reaches
 * the relay exactly once, and the bounce of a refused one is stored once.
 */
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const ADMIN = { username: 'queueadmin', password: 'queue-admin-password' };

let dataDir: string;
let databaseUrl: string | null = null;
let dropDatabase: (() => Promise<void>) | null = null;
const children: ChildProcess[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function startServer(relayPort: number): Promise<{ process: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['apps/server/dist/server.js'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      SMTP_PORT: '0',
      HOST: '127.0.0.1',
      MAIL_HOSTNAME: 'mx.restart.test',
      INIT_ADMIN_USER: ADMIN.username,
      INIT_ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'info',
      RELAY_URL: `smtp://127.0.0.1:${relayPort}`,
      QUEUE_POLL_MS: '200',
      QUEUE_LEASE_MS: '3000',
      QUEUE_RETRY_DELAYS_MS: '1500',
      DATABASE_URL: databaseUrl ?? '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const http = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (http && /SMTP listening/.test(output)) {
        clearTimeout(timer);
        resolve({ process: child, port: Number(http[1]) });
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

async function api(port: number, method: string, path: string, token?: string, body?: unknown): Promise<any> {
  const response = await fetch(`http://127.0.0.1:${port}/api/${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return response.json();
}

async function sentStatus(port: number, token: string, id: number) {
  const list = await api(port, 'GET', 'user/getSentEmail?pageSize=100', token);
  return list.data.list.find((item: { id: number }) => item.id === id);
}

beforeAll(async () => {
  execFileSync('npx', ['tsc', '-b'], { cwd: repoRoot, stdio: 'pipe' });
  dataDir = await mkdtemp(join(tmpdir(), 'youju-queue-'));
  if (testEngine === 'postgres') {
    const database = await createPostgresDatabase();
    databaseUrl = database.url;
    dropDatabase = database.drop;
  }
}, 180_000);

afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await dropDatabase?.();
  await rm(dataDir, { recursive: true, force: true });
});

describe('outbound queue across kill -9', () => {
  it('delivers a message exactly once after the server is killed mid-delivery and between retries', async () => {
    // 1. The relay takes the DATA of the first attempt and never answers: the row is "sending".
    let releaseStall: () => void = () => {};
    let stalled = false;
    const relay = await startRecordingSmtp((attempt) => {
      if (attempt > 1) return null;
      stalled = true;
      return new Promise((resolve) => {
        releaseStall = () => resolve({ code: 421, message: 'closing' });
      });
    });
    const first = await startServer(relay.port);
    const login = await api(first.port, 'POST', 'login', undefined, ADMIN);
    const token = login.data.token as string;
    const domain = await api(first.port, 'POST', 'user/addDomain', token, { name: 'restart.test' });
    expect(domain.error).toBe(0);
    const sent = await api(first.port, 'POST', 'user/sendEmail', token, {
      from: 'ops@restart.test',
      to: ['far@far-away.example'],
      subject: '重启前排队',
      text: '杀进程也不丢',
    });
    expect(sent.data.status).toBe('queued');
    await waitFor(async () => (stalled ? true : undefined), 15_000, 'the relay to receive DATA');
    await kill(first.process);
    releaseStall();

    const second = await startServer(relay.port);
    const login2 = await api(second.port, 'POST', 'login', undefined, ADMIN);
    const token2 = login2.data.token as string;
    // The lease of the killed process runs out, then the new one takes the row.
    const delivered = await waitFor(
      async () => {
        const item = await sentStatus(second.port, token2, sent.data.id);
        return item?.status === 'delivered' ? item : undefined;
      },
      20_000,
      'delivery after restart',
    );
    expect(delivered.deliveries[0]).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(relay.received).toHaveLength(1);
    expect(relay.received[0]?.data.toString()).toContain('Subject: =?UTF-8?');

    // 2. A relay that is not there yet: the row waits as "retrying"; kill, start the relay, restart.
    const laterPort = await freePort();
    await kill(second.process);
    const third = await startServer(laterPort);
    const login3 = await api(third.port, 'POST', 'login', undefined, ADMIN);
    const token3 = login3.data.token as string;
    const queued = await api(third.port, 'POST', 'user/sendEmail', token3, {
      from: 'ops@restart.test',
      to: ['later@far-away.example'],
      subject: '等待重试',
      text: '.',
    });
    const retrying = await waitFor(
      async () => {
        const item = await sentStatus(third.port, token3, queued.data.id);
        return item?.status === 'retrying' ? item : undefined;
      },
      15_000,
      'a failed first attempt',
    );
    expect(retrying.deliveries[0].lastError).toMatch(/ECONNREFUSED|连接/);
    await kill(third.process);
    const laterRelay = await startRecordingSmtp(() => null, {}, { port: laterPort });
    const fourth = await startServer(laterPort);
    const login4 = await api(fourth.port, 'POST', 'login', undefined, ADMIN);
    const token4 = login4.data.token as string;
    const done = await waitFor(
      async () => {
        const item = await sentStatus(fourth.port, token4, queued.data.id);
        return item?.status === 'delivered' ? item : undefined;
      },
      20_000,
      'the retried delivery after restart',
    );
    expect(done.deliveries[0].attempts).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(laterRelay.received).toHaveLength(1);
    expect(relay.received).toHaveLength(1);
    await kill(fourth.process);
    await relay.close();
    await laterRelay.close();
  });

  it('stores the bounce of a refused message once, and a restart after it adds none', async () => {
    const relay = await startRecordingSmtp(() => ({ code: 550, message: '5.1.1 User unknown' }));
    const first = await startServer(relay.port);
    const login = await api(first.port, 'POST', 'login', undefined, ADMIN);
    const token = login.data.token as string;
    const domain = await api(first.port, 'POST', 'user/addDomain', token, { name: 'bounce-restart.test' });
    expect(domain.error).toBe(0);
    const address = await api(first.port, 'POST', 'user/createEmail', token, {
      domainId: domain.data.id,
      localPart: 'ops',
    });
    expect(address.error).toBe(0);
    const sent = await api(first.port, 'POST', 'user/sendEmail', token, {
      from: 'ops@bounce-restart.test',
      to: ['nobody@far-away.example'],
      subject: '会被退回',
      text: '.',
    });
    expect(sent.error).toBe(0);
    const bounces = async (port: number, session: string) => {
      const inbox = await api(port, 'GET', 'user/getInbox?address=ops@bounce-restart.test', session);
      return inbox.data.list.filter(
        (item: { from: { address: string } }) => item.from.address === 'mailer-daemon@mx.restart.test',
      );
    };
    await waitFor(
      async () => ((await bounces(first.port, token)).length > 0 ? true : undefined),
      15_000,
      'the bounce',
    );
    await kill(first.process);

    const second = await startServer(relay.port);
    const login2 = await api(second.port, 'POST', 'login', undefined, ADMIN);
    const token2 = login2.data.token as string;
    // Several polls (200 ms) and more than a lease (3 s) later, still one.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    const after = await bounces(second.port, token2);
    expect(after).toHaveLength(1);
    expect(after[0].subject).toBe('退信：邮件未能送达（会被退回）');
    expect(relay.attempts()).toBe(1);
    await kill(second.process);
    await relay.close();
  });
});
