import { type ChildProcess, spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';
import { DNSMASQ, freeDnsPort } from '../support/dns-servers.js';
import { markDomainVerified } from '../support/fixtures.js';
import type { TestServer } from '../support/test-server.js';

let counter = 0;

export interface SenderWorld {
  userToken: string;
  userId: number;
  domainId: number;
  domain: string;
  /** a mailbox session on the domain (regEmail with a password) */
  mailboxToken: string;
  mailboxAddress: string;
}

/** A system user with its own open domain and one mailbox account logged in on it. */
export async function senderWorld(server: TestServer, label: string, domain?: string): Promise<SenderWorld> {
  const admin = await server.adminToken();
  counter++;
  const username = `${label}${counter}${Date.now().toString(36).slice(-4)}`;
  const created = await server.api('POST', 'admin/createSysAccount', {
    token: admin,
    body: { username, password: 'user-password-1', role: 'user' },
  });
  if (created.body.error !== 0) throw new Error(JSON.stringify(created.body));
  const login = await server.api('POST', 'login', { body: { username, password: 'user-password-1' } });
  const userToken = login.body.data.token as string;
  const name = domain ?? `${username}.youju.test`;
  const added = await server.api('POST', 'user/addDomain', {
    token: userToken,
    body: { name, publicRegistration: true },
  });
  if (added.body.error !== 0) throw new Error(JSON.stringify(added.body));
  await markDomainVerified(server, added.body.data.id);
  // A mailbox account the domain's owner created (a visitor's own registration may send only
  // inside the service: test/security/sending-policy.test.ts).
  const account = await server.api('POST', 'user/createEmailAccount', {
    token: userToken,
    body: { domainId: added.body.data.id, localPart: 'zhangsan', password: 'mailbox-pass-1' },
  });
  if (account.body.error !== 0) throw new Error(JSON.stringify(account.body));
  const registered = await server.api('POST', 'loginEmail', {
    body: { email: `zhangsan@${name}`, password: 'mailbox-pass-1' },
  });
  if (registered.body.error !== 0) throw new Error(JSON.stringify(registered.body));
  return {
    userToken,
    userId: created.body.data.id,
    domainId: added.body.data.id,
    domain: name,
    mailboxToken: registered.body.data.token,
    mailboxAddress: registered.body.data.email,
  };
}

/** POST uploadFile as multipart with a real FormData body, like the browser does. */
export async function upload(
  server: TestServer,
  token: string,
  content: Buffer,
  filename: string,
  type = 'application/octet-stream',
): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append('file', new Blob([content], { type }), filename);
  const response = await fetch(`${server.baseUrl}/api/user/uploadFile`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: response.status, body: await response.json() };
}

/** Polls `check` until it returns a value (not undefined) or the time is up. */
export async function waitFor<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 20_000,
  label = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The sent item `id` as getSentEmail lists it. */
export async function sentItem(server: TestServer, token: string, id: number): Promise<any> {
  const { body } = await server.api('GET', 'user/getSentEmail?pageSize=100', { token });
  if (body.error !== 0) throw new Error(JSON.stringify(body));
  return body.data.list.find((item: { id: number }) => item.id === id);
}

/** Waits until every delivery of a sent item has left queued/sending/retrying. */
export async function settled(
  server: TestServer,
  token: string,
  id: number,
  timeoutMs = 20_000,
): Promise<any> {
  return waitFor(
    async () => {
      const item = await sentItem(server, token, id);
      return item && ['delivered', 'failed'].includes(item.status) ? item : undefined;
    },
    timeoutMs,
    `sent item ${id} to settle`,
  );
}

export async function rawOf(server: TestServer, token: string, path: string): Promise<Buffer> {
  const response = await fetch(`${server.baseUrl}/api/user/${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (response.status !== 200) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
  return Buffer.from(await response.arrayBuffer());
}

export interface ReceivedMessage {
  mailFrom: string;
  rcptTo: string[];
  data: Buffer;
  secure: boolean;
}

/**
 * A tiny SMTP server (the relay or MX of a test) that records what it accepts; `answer` decides the
 * reply to each DATA (return null for 250, or an SMTP error to send instead).
 */
export async function startRecordingSmtp(
  answer: (
    attempt: number,
    session: SMTPServerSession,
  ) => { code: number; message: string } | null | Promise<{ code: number; message: string } | null> = () =>
    null,
  options: Partial<SMTPServerOptions> = {},
  listen: { host?: string; port?: number } = {},
): Promise<{ port: number; received: ReceivedMessage[]; attempts: () => number; close(): Promise<void> }> {
  const received: ReceivedMessage[] = [];
  let attempts = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH'],
    hideSTARTTLS: true,
    logger: false,
    ...options,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        attempts++;
        const reply = await answer(attempts, session);
        if (reply) {
          const error = new Error(reply.message) as Error & { responseCode: number };
          error.responseCode = reply.code;
          return done(error);
        }
        received.push({
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          rcptTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          data: Buffer.concat(chunks),
          secure: session.secure,
        });
        done(null, 'OK: queued as test');
      });
    },
  });
  await new Promise<void>((resolve) =>
    server.listen(listen.port ?? 0, listen.host ?? '127.0.0.1', () => resolve()),
  );
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    attempts: () => attempts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * dnsmasq on a free loopback port answering MX for each domain with `mx.<domain>` and an A record
 * for that host (127.0.0.1 unless given; no upstream, no files). `local` names zones answered with
 * NXDOMAIN.
 */
export async function startMxDns(
  records: Array<{ domain: string; ip?: string }>,
  local: string[] = [],
): Promise<{ address: string; stop(): Promise<void> }> {
  const domains = records.map((record) => record.domain);
  const port = await freeDnsPort();
  const args = [
    '--no-daemon',
    `--port=${port}`,
    '--listen-address=127.0.0.1',
    '--bind-interfaces',
    '--no-resolv',
    '--no-hosts',
    '--conf-file=/dev/null',
    '--pid-file=',
    '--user=root',
    ...records.flatMap(({ domain, ip }) => [
      `--local=/${domain}/`,
      `--mx-host=${domain},mx.${domain},10`,
      `--host-record=mx.${domain},${ip ?? '127.0.0.1'}`,
    ]),
    ...local.map((zone) => `--local=/${zone}/`),
  ];
  const child: ChildProcess = spawn(DNSMASQ, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const { Resolver } = await import('node:dns/promises');
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`dnsmasq exited: ${output}`);
    const resolver = new Resolver({ timeout: 300, tries: 1 });
    resolver.setServers([`127.0.0.1:${port}`]);
    try {
      await resolver.resolveMx(domains[0] as string);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`dnsmasq did not answer: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    address: `127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
