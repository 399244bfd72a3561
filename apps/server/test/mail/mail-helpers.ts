import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { markDomainVerified } from '../support/fixtures.js';
import type { TestServer } from '../support/test-server.js';

export const FIXTURES = fileURLToPath(new URL('../fixtures/eml/', import.meta.url));

export interface FixtureExpectation {
  file: string;
  subject: string;
  from?: { name: string; address: string };
  text?: string;
  textContains?: string[];
  textEmpty?: boolean;
  textContainsAny?: boolean;
  htmlContains?: string[];
  htmlNotContains?: string[];
  cc?: { name: string; address: string }[];
  toContains?: { name: string; address: string }[];
  attachments: { filename: string; contentType: string; size: number; sha256: string }[] | null;
  inlineCid?: string;
}

export function fixtureList(): FixtureExpectation[] {
  return JSON.parse(readFileSync(join(FIXTURES, 'expected.json'), 'utf8')) as FixtureExpectation[];
}

/** A fixture with its recipient placeholder filled in. */
export function fixtureBytes(file: string, recipient: string): Buffer {
  const raw = readFileSync(join(FIXTURES, file));
  const marker = Buffer.from('<RCPT>');
  const at = raw.indexOf(marker);
  const filled =
    at < 0
      ? raw
      : Buffer.concat([raw.subarray(0, at), Buffer.from(`<${recipient}>`), raw.subarray(at + marker.length)]);
  // DATA always ends with CRLF before the final dot (RFC 5321 section 4.1.1.4), so the stored
  // message does too.
  return filled.subarray(-2).toString() === '\r\n' || filled.length === 0
    ? filled
    : Buffer.concat([filled, Buffer.from('\r\n')]);
}

export interface SmtpReplyLine {
  code: number;
  text: string;
}

/**
 * A raw SMTP client over a real socket: sends exactly the bytes it is given, so tests can also
 * send what well-behaved clients never would (bare LF, oversize DATA).
 */
export class RawSmtpClient {
  private buffer = '';
  private waiters: ((reply: SmtpReplyLine) => void)[] = [];
  private replies: SmtpReplyLine[] = [];
  closed = false;

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk) => {
      this.buffer += chunk.toString('latin1');
      for (;;) {
        const match = /^(\d{3})([ -])(.*?)\r\n/m.exec(this.buffer);
        if (!match) break;
        // Collect multi-line replies until the line with a space after the code.
        const end = this.buffer.search(/^\d{3} .*\r\n/m);
        if (end < 0) break;
        const lineEnd = this.buffer.indexOf('\r\n', end) + 2;
        const block = this.buffer.slice(0, lineEnd);
        this.buffer = this.buffer.slice(lineEnd);
        const lines = block.trimEnd().split('\r\n');
        const last = lines[lines.length - 1] ?? '';
        const reply = { code: Number(last.slice(0, 3)), text: lines.map((l) => l.slice(4)).join('\n') };
        const waiter = this.waiters.shift();
        if (waiter) waiter(reply);
        else this.replies.push(reply);
      }
    });
    socket.on('close', () => {
      this.closed = true;
      for (const waiter of this.waiters.splice(0)) waiter({ code: 0, text: 'closed' });
    });
    socket.on('error', () => undefined);
  }

  static async connect(port: number, localAddress?: string): Promise<RawSmtpClient> {
    const socket = connect({ port, host: '127.0.0.1', ...(localAddress ? { localAddress } : {}) });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new RawSmtpClient(socket);
  }

  read(): Promise<SmtpReplyLine> {
    const ready = this.replies.shift();
    if (ready) return Promise.resolve(ready);
    if (this.closed) return Promise.resolve({ code: 0, text: 'closed' });
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  async command(line: string): Promise<SmtpReplyLine> {
    this.socket.write(`${line}\r\n`);
    return this.read();
  }

  /** Sends DATA content, dot-stuffed (RFC 5321 section 4.5.2), and the terminator. */
  async data(content: Buffer): Promise<SmtpReplyLine> {
    const start = await this.command('DATA');
    if (start.code !== 354) return start;
    let body = content;
    if (body.length > 0 && body[0] === 0x2e) body = Buffer.concat([Buffer.from('.'), body]);
    const stuffed = Buffer.from(body.toString('latin1').replace(/\r\n\./g, '\r\n..'), 'latin1');
    const ending = stuffed.length === 0 || stuffed.subarray(-2).toString() === '\r\n' ? '.\r\n' : '\r\n.\r\n';
    // Wait for the buffer to drain, or for the socket to close: a server killed mid-DATA never
    // drains it, and the sender must then see the failure instead of waiting forever.
    await new Promise<void>((resolve) => {
      if (this.closed || this.socket.write(stuffed)) return resolve();
      const done = () => {
        this.socket.off('drain', done);
        this.socket.off('close', done);
        resolve();
      };
      this.socket.once('drain', done);
      this.socket.once('close', done);
    });
    this.socket.write(ending);
    return this.read();
  }

  async quit(): Promise<void> {
    if (!this.closed) {
      this.socket.write('QUIT\r\n');
      this.socket.end();
    }
  }
}

export interface SendResult {
  greeting: SmtpReplyLine;
  mailFrom?: SmtpReplyLine;
  rcpt: SmtpReplyLine[];
  data?: SmtpReplyLine;
}

/** One complete SMTP transaction; stops at the first refusal like a real client. */
export async function sendMail(
  port: number,
  options: { from?: string; to: string[]; content: Buffer; size?: number },
): Promise<SendResult> {
  const client = await RawSmtpClient.connect(port);
  try {
    const greeting = await client.read();
    const result: SendResult = { greeting, rcpt: [] };
    if (greeting.code !== 220) return result;
    await client.command('EHLO client.test');
    result.mailFrom = await client.command(
      `MAIL FROM:<${options.from ?? 'sender@sender.example'}>${options.size ? ` SIZE=${options.size}` : ''}`,
    );
    if (result.mailFrom.code !== 250) return result;
    for (const to of options.to) result.rcpt.push(await client.command(`RCPT TO:<${to}>`));
    if (!result.rcpt.some((r) => r.code === 250)) return result;
    result.data = await client.data(options.content);
    return result;
  } finally {
    await client.quit();
  }
}

/** A plain message with CRLF line ends. */
export function simpleMessage(
  to: string,
  subject: string,
  body: string,
  extraHeaders: string[] = [],
): Buffer {
  return Buffer.from(
    [
      'From: Tester <tester@sender.example>',
      `To: <${to}>`,
      `Subject: ${subject}`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      ...extraHeaders,
      '',
      body,
      '',
    ].join('\r\n'),
    'utf8',
  );
}

export interface MailWorld {
  adminToken: string;
  userToken: string;
  userId: number;
  username: string;
  domainId: number;
  domain: string;
}

let counter = 0;

/** A system user with its own domain (test data per test file). */
export async function createUserWithDomain(server: TestServer, label: string): Promise<MailWorld> {
  const adminToken = await server.adminToken();
  counter++;
  const username = `${label}${counter}${Date.now().toString(36).slice(-4)}`;
  const created = await server.api('POST', 'admin/createSysAccount', {
    token: adminToken,
    body: { username, password: 'user-password-1', role: 'user' },
  });
  if (created.body.error !== 0) throw new Error(JSON.stringify(created.body));
  const login = await server.api('POST', 'login', { body: { username, password: 'user-password-1' } });
  const userToken = login.body.data.token as string;
  const domain = `${username}.youju.test`;
  const added = await server.api('POST', 'user/addDomain', {
    token: userToken,
    body: { name: domain, publicRegistration: true },
  });
  if (added.body.error !== 0) throw new Error(JSON.stringify(added.body));
  await markDomainVerified(server, added.body.data.id);
  return {
    adminToken,
    userToken,
    userId: created.body.data.id,
    username,
    domainId: added.body.data.id,
    domain,
  };
}

export async function createAddress(
  server: TestServer,
  world: MailWorld,
  localPart?: string,
): Promise<{ id: number; address: string }> {
  const { body } = await server.api('POST', 'user/createEmail', {
    token: world.userToken,
    body: { domainId: world.domainId, ...(localPart ? { localPart } : {}) },
  });
  if (body.error !== 0) throw new Error(JSON.stringify(body));
  return body.data;
}

/** getInbox's data; `query` starts with `&`. Delivery is synchronous, so no polling is needed. */
export async function inbox(server: TestServer, token: string, query = ''): Promise<any> {
  const size = query.includes('pageSize=') ? '' : 'pageSize=100';
  const { body } = await server.api('GET', `user/getInbox?${size}${query}`, { token });
  if (body.error !== 0) throw new Error(JSON.stringify(body));
  return body.data;
}
