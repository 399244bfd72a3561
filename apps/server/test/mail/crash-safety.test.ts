import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, testEngine } from '../support/test-server.js';
import { sendMail } from './mail-helpers.js';

/**
 * Crash safety (issue 3): the real program (`node apps/server/dist/server.js`) takes mail from
 * concurrent senders and is killed with SIGKILL while messages are in flight; after a restart on
 * the same data directory and database, every message that got "250" must be there, byte for byte.
 */
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const ADMIN = { username: 'crashadmin', password: 'crash-admin-password' };

let dataDir: string;
let databaseUrl: string | null = null;
let dropDatabase: (() => Promise<void>) | null = null;
let child: ChildProcess | null = null;

interface Running {
  process: ChildProcess;
  httpPort: number;
  smtpPort: number;
}

async function startServer(): Promise<Running> {
  const processHandle = spawn(process.execPath, ['apps/server/dist/server.js'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      SMTP_PORT: '0',
      HOST: '127.0.0.1',
      MAIL_HOSTNAME: 'mx.crash.test',
      INIT_ADMIN_USER: ADMIN.username,
      INIT_ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'info',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATABASE_URL: '' }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = processHandle;
  let output = '';
  return new Promise<Running>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    const check = () => {
      const http = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      const smtp = /SMTP listening on [^:]+:(\d+)/.exec(output);
      if (http && smtp) {
        clearTimeout(timer);
        resolve({ process: processHandle, httpPort: Number(http[1]), smtpPort: Number(smtp[1]) });
      }
    };
    processHandle.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      check();
    });
    processHandle.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    processHandle.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
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

function message(to: string, index: number): Buffer {
  // Mostly small messages, every fourth one a few megabytes so that some are mid-stream at the kill.
  const payload = randomBytes(index % 4 === 0 ? 3 * 1024 * 1024 : 2048)
    .toString('base64')
    .replace(/.{76}/g, '$&\r\n');
  return Buffer.from(
    `From: <load@sender.example>\r\nTo: <${to}>\r\nSubject: crash-${index}\r\nMIME-Version: 1.0\r\n` +
      `Content-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\n${payload}\r\n`,
  );
}

beforeAll(async () => {
  execFileSync('npx', ['tsc', '-b'], { cwd: repoRoot, stdio: 'pipe' });
  dataDir = await mkdtemp(join(tmpdir(), 'youju-crash-'));
  if (testEngine === 'postgres') {
    const database = await createPostgresDatabase();
    databaseUrl = database.url;
    dropDatabase = database.drop;
  }
}, 180_000);

afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await dropDatabase?.();
  await rm(dataDir, { recursive: true, force: true });
});

describe('crash safety', () => {
  it('keeps every acknowledged message intact across kill -9', async () => {
    const first = await startServer();
    const login = await api(first.httpPort, 'POST', 'login', undefined, ADMIN);
    const token = login.data.token as string;
    const domain = await api(first.httpPort, 'POST', 'user/addDomain', token, { name: 'crash.youju.test' });
    const box = await api(first.httpPort, 'POST', 'user/createEmail', token, {
      domainId: domain.data.id,
      localPart: 'load',
    });
    const address = box.data.address as string;

    const sent = new Map<number, Buffer>();
    const acknowledged = new Set<number>();
    let next = 0;
    let killed = false;
    const worker = async () => {
      while (!killed) {
        const index = next++;
        const content = message(address, index);
        sent.set(index, content);
        try {
          const result = await sendMail(first.smtpPort, { to: [address], content });
          if (result.data?.code === 250) acknowledged.add(index);
        } catch {
          // the server went away mid-transaction
        }
      }
    };
    const workers = Array.from({ length: 6 }, worker);
    // Kill once enough mail got through, in the middle of the traffic.
    const deadline = Date.now() + 20_000;
    while (acknowledged.size < 12 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    first.process.kill('SIGKILL');
    killed = true;
    await Promise.allSettled(workers);
    expect(acknowledged.size).toBeGreaterThanOrEqual(12);

    const second = await startServer();
    const again = await api(second.httpPort, 'POST', 'login', undefined, ADMIN);
    const token2 = again.data.token as string;
    const stored = new Map<string, number>();
    for (let page = 1; ; page++) {
      const list = await api(second.httpPort, 'GET', `user/getInbox?pageSize=100&page=${page}`, token2);
      for (const item of list.data.list) stored.set(item.subject, item.id);
      if (list.data.list.length < 100) break;
    }
    for (const index of acknowledged) {
      const id = stored.get(`crash-${index}`);
      expect(id, `acknowledged message crash-${index} is missing`).toBeDefined();
    }
    // Everything stored, acknowledged or not (a commit can beat the reply to a kill), is intact.
    for (const [subject, id] of stored) {
      const index = Number(subject.replace('crash-', ''));
      const response = await fetch(`http://127.0.0.1:${second.httpPort}/api/user/raw/${id}?token=${token2}`);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(bytes.equals(sent.get(index) ?? Buffer.alloc(0)), `${subject} differs`).toBe(true);
    }
    second.process.kill('SIGTERM');
    await new Promise((resolve) => second.process.once('exit', resolve));
  }, 120_000);
});
