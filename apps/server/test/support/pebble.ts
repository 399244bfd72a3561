import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPENSSL } from './certificates.js';
import { freePort } from './ports.js';
import { waitFor } from './wait-for.js';

/** Let's Encrypt's test CA, from Debian's `pebble` package (CI installs it). */
export const PEBBLE = '/usr/bin/pebble';
export const pebbleInstalled = existsSync(PEBBLE);

export interface RunningPebble {
  /** https://127.0.0.1:<port>/dir */
  directoryUrl: string;
  /** the PEM of the CA that signed Pebble's own HTTPS certificate: ACME_CA_BUNDLE */
  caBundle: string;
  /** the port Pebble connects to for HTTP-01 (its `httpPort`): the server's ACME_HTTP_PORT */
  httpPort: number;
  stop(): Promise<void>;
}

/**
 * Pebble on loopback: its directory on a free port over HTTPS (a certificate from a CA made here,
 * handed to the server as ACME_CA_BUNDLE), HTTP-01 validation against `httpPort`, names resolved by
 * `dnsServer` (BIND or dnsmasq from dns-servers.ts), validation without sleeps and never faked.
 */
export async function startPebble(options: { dnsServer: string; httpPort: number }): Promise<RunningPebble> {
  const directory = await mkdtemp(join(tmpdir(), 'youju-pebble-'));
  const run = (args: string[]) => execFileSync(OPENSSL, args, { cwd: directory, stdio: 'ignore' });
  run([
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-sha256',
    '-days',
    '2',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-subj',
    '/CN=youju test root for Pebble',
  ]);
  run([
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-sha256',
    '-keyout',
    'listener.key',
    '-out',
    'listener.csr',
    '-subj',
    '/CN=127.0.0.1',
  ]);
  await writeFile(join(directory, 'san.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  run([
    'x509',
    '-req',
    '-in',
    'listener.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-sha256',
    '-extfile',
    'san.cnf',
    '-out',
    'listener.pem',
  ]);
  const port = await freePort();
  const config = {
    pebble: {
      listenAddress: `127.0.0.1:${port}`,
      managementListenAddress: `127.0.0.1:${await freePort()}`,
      certificate: join(directory, 'listener.pem'),
      privateKey: join(directory, 'listener.key'),
      httpPort: options.httpPort,
      tlsPort: await freePort(),
      ocspResponderURL: '',
      externalAccountBindingRequired: false,
    },
  };
  await writeFile(join(directory, 'pebble.json'), JSON.stringify(config));
  const child: ChildProcess = spawn(
    PEBBLE,
    ['-config', join(directory, 'pebble.json'), '-dnsserver', options.dnsServer],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        PEBBLE_VA_NOSLEEP: '1',
        PEBBLE_VA_ALWAYS_VALID: '0',
        // No nonces refused at random and no authorizations reused: every order validates afresh.
        PEBBLE_WFE_NONCEREJECT: '0',
        PEBBLE_AUTHZREUSE: '0',
      },
    },
  );
  let printed = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    printed += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    printed += chunk.toString();
  });
  const ca = await readFile(join(directory, 'ca.pem'), 'utf8');
  const directoryUrl = `https://127.0.0.1:${port}/dir`;
  const answers = () =>
    new Promise<boolean>((resolve) => {
      const probe = request(directoryUrl, { ca, timeout: 1000 }, (response) => {
        response.resume();
        resolve(response.statusCode === 200);
      });
      probe.on('error', () => resolve(false));
      probe.end();
    });
  try {
    await waitFor(async () => child.exitCode === null && (await answers()), {
      what: 'Pebble to answer its directory',
      timeoutMs: 20_000,
      intervalMs: 100,
    });
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\n${printed}`);
  }
  return {
    directoryUrl,
    caBundle: join(directory, 'ca.pem'),
    httpPort: options.httpPort,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}
