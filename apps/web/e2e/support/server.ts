import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, repositoryRoot } from './build';

export interface RunningServer {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** the port of the server's SMTP listener, for delivering test mail */
  smtpPort: number;
  adminUser: string;
  adminPassword: string;
  dataDir: string;
  /** everything the process printed so far, for failure reports */
  output: () => string;
  stop: () => Promise<void>;
}

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

async function waitUntilAnswering(baseUrl: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`服务器启动后退出（退出码 ${child.exitCode}）：\n${output()}`);
    try {
      const response = await fetch(`${baseUrl}/api/getVar`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`服务器 60 秒内没有应答 /api/getVar：\n${output()}`);
}

export interface ServerOptions {
  /** false: start uninitialised (no INIT_ADMIN_*), as a fresh install does; default true */
  initialAdmin?: boolean;
  /** extra environment for the server process (e.g. DNS_SERVERS, MAIL_HOSTNAME) */
  env?: Record<string, string>;
}

/**
 * Starts the real server (`node apps/server/dist/server.js`) on free ports with a fresh data
 * directory and a first administrator, and waits until GET /api/getVar answers.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  ensureBuilt();
  // A free port is free when probed, not when the server binds it: another process (a server test
  // or a browser file in the other lane of `npm test`) may take it in between. The server then
  // exits at once with EADDRINUSE, and starting again on other ports is the whole remedy.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(options);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof Error) || !error.message.includes('EADDRINUSE')) throw error;
    }
  }
}

async function startServerOnce({
  initialAdmin = true,
  env: extraEnv = {},
}: ServerOptions): Promise<RunningServer> {
  const [port, smtpPort] = [await freePort(), await freePort()];
  const dataDir = await mkdtemp(join(tmpdir(), 'youju-e2e-'));
  const adminUser = 'admin';
  const adminPassword = `pw-${randomBytes(6).toString('hex')}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    HOST: '127.0.0.1',
    SMTP_PORT: String(smtpPort),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // The mail-client listeners are off unless a test asks: fixed default ports would clash between
    // servers started side by side.
    SUBMISSION_PORT: '0',
    IMAP_PORT: '0',
    POP3_PORT: '0',
    ...extraEnv,
  };
  if (initialAdmin) Object.assign(env, { INIT_ADMIN_USER: adminUser, INIT_ADMIN_PASSWORD: adminPassword });
  if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
  // Passwords hashed at the test cost (apps/server/src/lib/passwords.ts), which needs both.
  if (process.env.YOUJU_TEST_FAST_PASSWORDS === '1') {
    Object.assign(env, { NODE_ENV: 'test', YOUJU_TEST_FAST_PASSWORDS: '1' });
  }
  // The client is built with the same key (scripts/build.mjs reads it too).
  if (process.env.PERMISSION_KEY) env.PERMISSION_KEY = process.env.PERMISSION_KEY;

  const child = spawn(process.execPath, [join(repositoryRoot, 'apps/server/dist/server.js')], {
    cwd: repositoryRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    printed += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    printed += chunk.toString();
  });
  const output = () => printed;
  const baseUrl = `http://127.0.0.1:${port}`;

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited(child);
      clearTimeout(timer);
    }
    await rm(dataDir, { recursive: true, force: true });
  };

  try {
    await waitUntilAnswering(baseUrl, child, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, smtpPort: Number(env.SMTP_PORT), adminUser, adminPassword, dataDir, output, stop };
}
