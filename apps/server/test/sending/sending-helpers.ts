import type { AddressInfo } from 'node:net';
import type { SentItem } from '@youju/contract';
import { dkimVerify } from 'mailauth';
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';
import { getRaw } from '../support/api.js';
import { type RunningDnsServer, startDnsmasq } from '../support/dns-servers.js';
import { addDomain, createUser, uniqueUsername } from '../support/fixtures.js';
import type { TestServer } from '../support/test-server.js';
import { waitFor } from '../support/wait-for.js';

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
  const username = uniqueUsername(label);
  const user = await createUser(server, username);
  const name = domain ?? `${username}.youju.test`;
  const added = await addDomain(server, user.token, name, { publicRegistration: true });
  // A mailbox account the domain's owner created (a visitor's own registration may send only
  // inside the service: test/security/sending-policy.test.ts).
  const account = await server.api('POST', 'user/createEmailAccount', {
    token: user.token,
    body: { domainId: added.id, localPart: 'zhangsan', password: 'mailbox-pass-1' },
  });
  if (account.body.error !== 0) throw new Error(JSON.stringify(account.body));
  const registered = await server.api('POST', 'loginEmail', {
    body: { email: `zhangsan@${name}`, password: 'mailbox-pass-1' },
  });
  if (registered.body.error !== 0) throw new Error(JSON.stringify(registered.body));
  return {
    userToken: user.token,
    userId: user.id,
    domainId: added.id,
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
) {
  const form = new FormData();
  form.append('file', new Blob([content], { type }), filename);
  return server.api('POST', 'user/uploadFile', { token, body: form });
}

/** The sent item `id` as getSentEmail lists it. */
export async function sentItem(server: TestServer, token: string, id: number): Promise<SentItem | undefined> {
  const { body } = await server.api('GET', 'user/getSentEmail?pageSize=100', { token });
  if (body.error !== 0) throw new Error(JSON.stringify(body));
  return body.data.list.find((item) => item.id === id);
}

/** Waits until every delivery of a sent item has left queued/sending/retrying. */
export async function settled(
  server: TestServer,
  token: string,
  id: number,
  timeoutMs = 20_000,
): Promise<SentItem> {
  return waitFor(
    async () => {
      const item = await sentItem(server, token, id);
      return item && ['delivered', 'failed'].includes(item.status) ? item : undefined;
    },
    { timeoutMs, intervalMs: 100, what: `sent item ${id} to settle` },
  );
}

/** The bytes of `user/<path>` (`raw/<id>`, `sentRaw/<id>`), which must be there. */
export async function rawOf(server: TestServer, token: string, path: string): Promise<Buffer> {
  const response = await getRaw(server, `user/${path}`, { token });
  if (response.status !== 200) throw new Error(`${path}: HTTP ${response.status} ${response.bytes}`);
  return response.bytes;
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
 * for that host (127.0.0.1 unless given). `local` names zones answered with NXDOMAIN.
 */
export function startMxDns(
  records: Array<{ domain: string; ip?: string }>,
  local: string[] = [],
): Promise<RunningDnsServer> {
  return startDnsmasq({
    local: [...records.map((record) => record.domain), ...local],
    mx: records.map(({ domain }) => ({ name: domain, host: `mx.${domain}`, preference: 10 })),
    a: records.map(({ domain, ip }) => ({ name: `mx.${domain}`, ip: ip ?? '127.0.0.1' })),
  });
}

/**
 * Checks the DKIM signature of `message` with an independent verifier (mailauth), against the
 * domain's published record as getDkim shows it; returns the verifier's results and the names it
 * looked up.
 */
export async function verifyDkim(
  message: Buffer,
  record: { name: string; value: string },
): Promise<{ results: Awaited<ReturnType<typeof dkimVerify>>['results']; lookups: string[] }> {
  const lookups: string[] = [];
  const { results } = await dkimVerify(message, {
    resolver: async (name: string, type: string) => {
      lookups.push(`${type} ${name}`);
      if (type === 'TXT' && name === record.name) return [record.value.match(/.{1,255}/g) ?? []];
      const error = new Error('not found') as Error & { code: string };
      error.code = 'ENOTFOUND';
      throw error;
    },
  });
  return { results, lookups };
}
