// The built server as the benchmarks run it: `npm start`'s Node options (scripts/server-options.mjs),
// a fresh data directory, free loopback ports and a first administrator. Not a benchmark itself
// (scripts/bench.mjs runs only the files directly in bench/).
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { SERVER_ENV, SERVER_NODE_OPTIONS } from '../../scripts/server-options.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The administrator every benchmark's server is started with. */
export const BENCH_ADMIN = { username: 'bench', password: 'bench-password' };

/** A TCP port free on 127.0.0.1 at the moment of asking. */
/** Logs the bench's administrator in at `base` (origin + /api); resolves with the session token. */
export async function logIn(base) {
  const login = await (
    await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(BENCH_ADMIN),
    })
  ).json();
  return login.data.token;
}

/**
 * Sets the system's retention to ten years at `base` with an administrator's `token`, and checks
 * that it holds: the purge (30 days by default) would otherwise start deleting a bench's older mail
 * a minute after the server starts, in the middle of what is being measured.
 */
export async function keepAllMail(base, token) {
  const post = await fetch(`${base}/user/updateSetting`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ system: { retentionDays: 3650, junkRetentionDays: 0 } }),
  });
  const reply = await post.json();
  if (reply.error !== 0 || reply.data?.system?.retentionDays !== 3650) {
    throw new Error(`the retention was not set: ${JSON.stringify(reply).slice(0, 300)}`);
  }
}

export function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `script` (the built server by default) and resolves once `GET /api/getVar` answers.
 * `env` adds to its environment, `nodeArgs` to its Node options; its log goes to stderr only,
 * stdout too with `stdout: 'inherit'`. Resolves with the ports, `origin` (http://127.0.0.1:port),
 * `base` (origin + /api), the child and `stop()`, which ends it and waits for it to exit.
 */
export async function startBuiltServer({
  dataDir,
  databaseUrl = null,
  script = 'apps/server/dist/server.js',
  env = {},
  nodeArgs = [],
  stdout = 'ignore',
  // BENCH_START_TIMEOUT_MS: a machine under other load can take longer to migrate a fresh store.
  timeoutMs = Number(process.env.BENCH_START_TIMEOUT_MS ?? 30_000),
}) {
  const port = await freePort();
  const smtpPort = await freePort();
  const child = spawn(process.execPath, [...SERVER_NODE_OPTIONS, ...nodeArgs, script], {
    cwd: root,
    env: {
      ...SERVER_ENV,
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SMTP_PORT: String(smtpPort),
      // The mail-client listeners off: fixed default ports would clash between servers side by side.
      SUBMISSION_PORT: '0',
      IMAP_PORT: '0',
      POP3_PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      INIT_ADMIN_USER: BENCH_ADMIN.username,
      INIT_ADMIN_PASSWORD: BENCH_ADMIN.password,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', stdout, 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(`${origin}/api/getVar`)).ok) break;
    } catch {}
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not start within ${timeoutMs / 1000} s (exit ${child.exitCode})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, port, smtpPort, origin, base: `${origin}/api`, stop };
}
