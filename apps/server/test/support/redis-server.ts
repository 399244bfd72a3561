import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import type { PemPair } from './certificates.js';
import { freePort } from './ports.js';
import { waitFor } from './wait-for.js';

/** Debian's Redis (CI installs the package redis-server). */
export const REDIS_SERVER = '/usr/bin/redis-server';

/** Why Redis tests skip on this machine, or null when they run. */
export const redisMissing: string | null = existsSync(REDIS_SERVER)
  ? null
  : `${REDIS_SERVER} is not installed (Debian package redis-server)`;

export interface RedisServer {
  port: number;
  /** `redis://127.0.0.1:<port>`, or `rediss://localhost:<port>` with TLS */
  url: string;
  /** Kills the server with SIGKILL, as a crash does, and waits until it is gone. */
  kill(): Promise<void>;
  /** Stops the server answering (SIGSTOP) while its sockets stay open, as a hung server does; `resume` undoes it. */
  pause(): void;
  resume(): void;
  /** Starts it again on the same port (empty: nothing is saved). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Whether something on `port` answers PING with +PONG (over TLS, any certificate, when `tls`). */
function answersPing(port: number, tls: boolean): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tls
      ? tlsConnect({ port, host: '127.0.0.1', rejectUnauthorized: false })
      : createConnection({ port, host: '127.0.0.1' });
    let reply = '';
    socket.setTimeout(500, () => socket.destroy());
    socket.on(tls ? 'secureConnect' : 'connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString('latin1');
      if (reply.includes('\r\n')) socket.end();
    });
    socket.on('close', () => resolve(reply.startsWith('+PONG')));
    socket.on('error', () => {});
  });
}

/**
 * A real Redis on a free loopback port, nothing saved to disk (`--save ''`, `--appendonly no`),
 * in a directory of its own removed on stop. With `tls` it speaks only TLS (its `--tls-port`) with
 * that certificate, and asks clients for none.
 */
export async function startRedisServer(options: { tls?: PemPair } = {}): Promise<RedisServer> {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'youju-redis-'));
  const listen = options.tls
    ? [
        '--port',
        '0',
        '--tls-port',
        String(port),
        '--tls-cert-file',
        join(dir, 'cert.pem'),
        '--tls-key-file',
        join(dir, 'key.pem'),
        '--tls-auth-clients',
        'no',
      ]
    : ['--port', String(port)];
  if (options.tls) {
    await writeFile(join(dir, 'cert.pem'), options.tls.cert);
    await writeFile(join(dir, 'key.pem'), options.tls.key, { mode: 0o600 });
  }
  let child: ChildProcess | null = null;
  let output = '';

  async function launch(): Promise<void> {
    const started = spawn(
      REDIS_SERVER,
      [
        ...listen,
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
        '--daemonize',
        'no',
        '--loglevel',
        'warning',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = started;
    started.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    started.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    await waitFor(
      async () => {
        if (started.exitCode !== null)
          throw new Error(`redis-server exited (${started.exitCode}):\n${output}`);
        return answersPing(port, options.tls !== undefined);
      },
      { timeoutMs: 10_000, intervalMs: 50, what: `redis-server on ${port}` },
    );
  }

  async function end(signal: NodeJS.Signals): Promise<void> {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill(signal);
    const timer = setTimeout(() => running.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
  }

  await launch();
  return {
    port,
    url: options.tls ? `rediss://localhost:${port}` : `redis://127.0.0.1:${port}`,
    kill: () => end('SIGKILL'),
    pause: () => {
      (child as ChildProcess | null)?.kill('SIGSTOP');
    },
    resume: () => {
      (child as ChildProcess | null)?.kill('SIGCONT');
    },
    restart: launch,
    async stop() {
      await end('SIGTERM');
      await rm(dir, { recursive: true, force: true });
    },
  };
}
