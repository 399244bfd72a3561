import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { type ApiCaller, apiAt, expectOk } from './api.js';
import { createPostgresDatabase, testEngine } from './test-server.js';

/**
 * The real program (`node apps/server/dist/server.js`) in a child process, for tests that kill it
 * (SIGKILL) and start it again on the same data: what a crash or a restart leaves behind.
 */

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** Builds apps/server/dist, which the child processes run (`tsc -b`, as `npm run build` does). */
export function buildServer(): void {
  execFileSync('npx', ['tsc', '-b'], { cwd: repoRoot, stdio: 'pipe' });
}

/** A data directory and, on PostgreSQL, a database that outlive the processes started on them. */
export interface ServerStore {
  dataDir: string;
  /** empty on SQLite: the program then keeps its database in the data directory */
  databaseUrl: string;
  remove(): Promise<void>;
}

export async function createServerStore(): Promise<ServerStore> {
  const dataDir = await mkdtemp(join(tmpdir(), 'youju-process-'));
  const database = testEngine === 'postgres' ? await createPostgresDatabase() : null;
  return {
    dataDir,
    databaseUrl: database?.url ?? '',
    async remove() {
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ServerProcess {
  process: ChildProcess;
  baseUrl: string;
  smtpPort: number;
  /** Calls the API of this process ({@link callApi}). */
  api: ApiCaller;
  /** Kills the process with SIGKILL, as a crash does, and waits until it is gone. */
  kill(): Promise<void>;
  /** Stops the process with SIGTERM, as an operator does, and waits until it is gone. */
  stop(): Promise<void>;
  /** everything the process wrote to stdout and stderr so far (its log) */
  output(): string;
}

const running = new Set<ChildProcess>();

/**
 * Starts the program on `store` with loopback listeners on free ports and `env` on top, and
 * resolves once it has said that both HTTP and SMTP listen.
 */
export function startServerProcess(store: ServerStore, env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['apps/server/dist/server.js'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATA_DIR: store.dataDir,
      DATABASE_URL: store.databaseUrl,
      PORT: '0',
      SMTP_PORT: '0',
      // Off: a fixed default port would clash between processes started side by side.
      SUBMISSION_PORT: '0',
      // The mail-client listeners are off unless a test asks for them (their defaults are fixed
      // ports, which processes of parallel tests would share).
      IMAP_PORT: '0',
      POP3_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  const stopWith = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  };
  let output = '';
  return new Promise((resolve, reject) => {
    // A bound, not a measure: a fresh store migrates first, and CI runs three suites side by side.
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 90_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const http = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      const smtp = /SMTP listening on [^:]+:(\d+)/.exec(output);
      if (!http || !smtp) return;
      clearTimeout(timer);
      const baseUrl = `http://127.0.0.1:${http[1]}`;
      resolve({
        process: child,
        baseUrl,
        smtpPort: Number(smtp[1]),
        api: apiAt(baseUrl),
        kill: () => stopWith('SIGKILL'),
        stop: () => stopWith('SIGTERM'),
        output: () => output,
      });
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}

/** Kills every process still running, for afterAll: a failed test must not leave one behind. */
export function killServerProcesses(): void {
  for (const child of running) child.kill('SIGKILL');
}

/**
 * For a file whose tests run the program: before its tests, builds the program and makes a store;
 * after them, kills every process still running and removes the store. Returns the store's getter.
 */
export function useServerStore(): () => ServerStore {
  let store: ServerStore | undefined;
  beforeAll(async () => {
    buildServer();
    store = await createServerStore();
  }, 180_000);
  afterAll(async () => {
    killServerProcesses();
    await store?.remove();
  });
  return () => {
    if (!store) throw new Error('the store is made before the tests (beforeAll)');
    return store;
  };
}

/**
 * Logs the administrator `admin` in on `server`, adds `domain` and creates `localPart` on it: the
 * address a crash test sends to. Gives the administrator's token and the address.
 */
export async function adminWithAddress(
  server: ServerProcess,
  admin: { username: string; password: string },
  domain: string,
  localPart: string,
): Promise<{ token: string; address: string }> {
  const login = await server.api('POST', 'login', { body: admin });
  expectOk(login.body);
  const token = login.body.data.token;
  const added = await server.api('POST', 'user/addDomain', { token, body: { name: domain } });
  expectOk(added.body);
  const box = await server.api('POST', 'user/createEmail', {
    token,
    body: { domainId: added.body.data.id, localPart },
  });
  expectOk(box.body);
  return { token, address: box.body.data.address };
}
