import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.js';
import { waitFor } from './wait-for.js';

/** Debian paths (CI installs bind9, bind9-dnsutils and dnsmasq). */
export const DNSMASQ = '/usr/sbin/dnsmasq';
export const NAMED = '/usr/sbin/named';
export const TSIG_KEYGEN = '/usr/sbin/tsig-keygen';
export const DIG = '/usr/bin/dig';

/** A port free for both TCP and UDP on loopback (name servers listen on both). */
export async function freeDnsPort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    const udpFree = await new Promise<boolean>((resolve) => {
      const socket = createSocket('udp4');
      socket.once('error', () => resolve(false));
      socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(true)));
    });
    if (udpFree) return port;
  }
}

/** Resolves once the name server on `port` answers a query for `name` (any answer, even "no data"). */
async function waitForAnswer(
  port: number,
  name: string,
  child: ChildProcess,
  output: () => string,
): Promise<void> {
  const answers = async () => {
    if (child.exitCode !== null) throw new Error(`name server exited (${child.exitCode}):\n${output()}`);
    const resolver = new Resolver({ timeout: 300, tries: 1 });
    resolver.setServers([`127.0.0.1:${port}`]);
    try {
      await resolver.resolveSoa(name);
    } catch (error) {
      if (!['ENODATA', 'ENOTFOUND'].includes(String((error as NodeJS.ErrnoException).code))) return false;
    }
    return true;
  };
  await waitFor(answers, { timeoutMs: 20_000, intervalMs: 100, what: `the name server on ${port}` }).catch(
    (error: Error) => {
      throw new Error(`${error.message}:\n${output()}`);
    },
  );
}

function stopper(child: ChildProcess, cleanup: () => Promise<void>): () => Promise<void> {
  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    }
    await cleanup();
  };
}

export interface RunningDnsServer {
  port: number;
  /** `127.0.0.1:<port>`, for DNS_SERVERS */
  address: string;
  stop(): Promise<void>;
}

export interface DnsmasqRecords {
  /** zones answered locally: names without data get NXDOMAIN / NODATA instead of REFUSED */
  local: string[];
  mx?: Array<{ name: string; host: string; preference: number }>;
  /** address records (`--host-record`) */
  a?: Array<{ name: string; ip: string }>;
  txt?: Array<{ name: string; value: string }>;
}

/** dnsmasq on loopback with fixed records (`--mx-host`, `--txt-record`), no upstream, no files. */
export async function startDnsmasq(records: DnsmasqRecords, port?: number): Promise<RunningDnsServer> {
  const chosen = port ?? (await freeDnsPort());
  const args = [
    '--no-daemon',
    `--port=${chosen}`,
    '--listen-address=127.0.0.1',
    '--bind-interfaces',
    '--no-resolv',
    '--no-hosts',
    '--conf-file=/dev/null',
    '--pid-file=',
    '--user=root',
    ...records.local.map((zone) => `--local=/${zone}/`),
    ...(records.mx ?? []).map((mx) => `--mx-host=${mx.name},${mx.host},${mx.preference}`),
    ...(records.a ?? []).map((a) => `--host-record=${a.name},${a.ip}`),
    // A TXT value longer than 255 bytes travels as several character-strings (RFC 1035 3.3.14).
    ...(records.txt ?? []).map(
      (txt) => `--txt-record=${txt.name},${(txt.value.match(/.{1,255}/g) ?? ['']).join(',')}`,
    ),
  ];
  const child = spawn(DNSMASQ, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let printed = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    printed += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    printed += chunk.toString();
  });
  await waitForAnswer(chosen, records.local[0] ?? 'test', child, () => printed);
  return { port: chosen, address: `127.0.0.1:${chosen}`, stop: stopper(child, async () => {}) };
}

/** A UDP socket that reads queries and never answers: a resolver that does not respond. */
export async function startSilentDnsServer(): Promise<RunningDnsServer & { socket: Socket }> {
  const port = await freeDnsPort();
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(port, '127.0.0.1', () => resolve()));
  socket.on('message', () => {});
  return {
    port,
    address: `127.0.0.1:${port}`,
    socket,
    stop: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

export interface TsigKeyFile {
  name: string;
  algorithm: string;
  secret: string;
}

/** A new TSIG key from BIND's own `tsig-keygen`. */
export function generateTsigKey(name: string, algorithm = 'hmac-sha256'): TsigKeyFile {
  const text = execFileSync(TSIG_KEYGEN, ['-a', algorithm, name], { encoding: 'utf8' });
  const secret = /secret\s+"([^"]+)"/.exec(text)?.[1];
  if (!secret) throw new Error(`tsig-keygen printed no secret:\n${text}`);
  return { name, algorithm, secret };
}

/**
 * BIND 9 (`named -g`) on loopback, authoritative for `zone` (SOA, NS, one A record), accepting
 * RFC 2136 updates signed with `key`.
 */
export async function startBind(
  zone: string,
  key: TsigKeyFile,
): Promise<RunningDnsServer & { directory: string }> {
  const port = await freeDnsPort();
  const directory = await mkdtemp(join(tmpdir(), 'youju-bind-'));
  const zoneFile = join(directory, `${zone}.zone`);
  await writeFile(
    zoneFile,
    [
      '$TTL 300',
      `@ IN SOA ns1.${zone}. hostmaster.${zone}. ( 1 3600 600 86400 300 )`,
      `@ IN NS ns1.${zone}.`,
      'ns1 IN A 127.0.0.1',
      '@ IN TXT "site-verification=keep-me"',
      '',
    ].join('\n'),
  );
  await writeFile(
    join(directory, 'named.conf'),
    `options {
  directory "${directory}";
  pid-file "${directory}/named.pid";
  session-keyfile "${directory}/session.key";
  managed-keys-directory "${directory}";
  listen-on port ${port} { 127.0.0.1; };
  listen-on-v6 { none; };
  recursion no;
  dnssec-validation no;
  allow-query { any; };
};
controls { };
key "${key.name}" { algorithm ${key.algorithm}; secret "${key.secret}"; };
zone "${zone}" {
  type primary;
  file "${zoneFile}";
  update-policy { grant ${key.name} zonesub ANY; };
};
`,
  );
  const child = spawn(NAMED, ['-g', '-c', join(directory, 'named.conf'), '-p', String(port), '-n', '1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    printed += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    printed += chunk.toString();
  });
  await waitForAnswer(port, zone, child, () => printed);
  return {
    port,
    address: `127.0.0.1:${port}`,
    directory,
    stop: stopper(child, () => rm(directory, { recursive: true, force: true })),
  };
}

/** `dig +short` against a test name server: what a real resolver client sees. */
export function dig(port: number, name: string, type: string): string[] {
  const text = execFileSync(DIG, [`@127.0.0.1`, '-p', String(port), '+short', '+tcp', name, type], {
    encoding: 'utf8',
  });
  return text.split('\n').filter(Boolean);
}
