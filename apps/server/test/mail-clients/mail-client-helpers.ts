import { ImapFlow } from 'imapflow';
import { createAddress, createUserWithDomain, type MailWorld } from '../support/fixtures.js';
import type { TestServer } from '../support/test-server.js';

/** A mailbox account (address and password, as a mail client logs in) with a web session. */
export interface MailAccount {
  id: number;
  email: string;
  password: string;
  /** a `loginEmail` session of the mailbox, for the web's side of shared state */
  token: string;
  world: MailWorld;
}

/** A new user with its domain and one mailbox account with a password on it. */
export async function createMailAccount(
  server: TestServer,
  label: string,
  world?: MailWorld,
): Promise<MailAccount> {
  const owner = world ?? (await createUserWithDomain(server, label));
  const password = `pw-${label}-Secret1`;
  const localPart = `${label}${Math.random().toString(36).slice(2, 7)}`;
  const created = await server.api('POST', 'user/createEmailAccount', {
    token: owner.userToken,
    body: { domainId: owner.domainId, localPart, password },
  });
  if (created.body.error !== 0) throw new Error(JSON.stringify(created.body));
  const email = `${localPart}@${owner.domain}`;
  const login = await server.api('POST', 'loginEmail', { body: { email, password } });
  if (login.body.error !== 0) throw new Error(JSON.stringify(login.body));
  return { id: created.body.data.id, email, password, token: login.body.data.token, world: owner };
}

/** imapflow logged in as `account` on loopback without TLS (allowed for loopback clients). */
export async function imapClient(
  port: number,
  account: Pick<MailAccount, 'email' | 'password'>,
): Promise<ImapFlow> {
  const client = new ImapFlow({
    host: '127.0.0.1',
    port,
    secure: false,
    doSTARTTLS: false,
    auth: { user: account.email, pass: account.password },
    logger: false,
  });
  await client.connect();
  return client;
}

export { createAddress };

/** imapflow answers `false` for a failed command: the value, or the test fails here. */
export function defined<T>(value: T | false | undefined | null): T {
  if (value === false || value === undefined || value === null) throw new Error('the IMAP command failed');
  return value;
}

/** A line client for exact bytes: sends what it is given, collects what comes back. */
export class RawLineClient {
  private received = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  closed = false;

  private constructor(public socket: import('node:net').Socket) {
    this.listen(socket);
  }

  private listen(socket: import('node:net').Socket): void {
    socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      for (const wake of this.waiters.splice(0)) wake();
    });
    socket.on('close', () => {
      this.closed = true;
      for (const wake of this.waiters.splice(0)) wake();
    });
    socket.on('error', () => {});
  }

  static async connect(port: number): Promise<RawLineClient> {
    const { connect } = await import('node:net');
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new RawLineClient(socket);
  }

  /** Waits until the text received so far matches `pattern`; returns it all and forgets it. */
  async until(pattern: RegExp, timeoutMs = 5_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const text = this.received.toString('latin1');
      if (pattern.test(text)) {
        this.received = Buffer.alloc(0);
        return text;
      }
      if (this.closed) throw new Error(`closed before ${pattern}: ${text}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${pattern}: ${text}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  send(text: string | Buffer): void {
    this.socket.write(text);
  }

  /** Sends `tag command` and waits for the tagged answer. */
  async command(tag: string, command: string): Promise<string> {
    this.send(`${tag} ${command}\r\n`);
    return this.until(new RegExp(`(^|\\r\\n)${tag} (OK|NO|BAD)[^\\r\\n]*\\r\\n`));
  }

  /** Upgrades to TLS (after STARTTLS/STLS), accepting the self-signed certificate. */
  async startTls(): Promise<void> {
    const { connect } = await import('node:tls');
    const secured = connect({ socket: this.socket, rejectUnauthorized: false });
    await new Promise<void>((resolve, reject) => {
      secured.once('secureConnect', resolve);
      secured.once('error', reject);
    });
    this.socket.removeAllListeners('data');
    this.received = Buffer.alloc(0);
    this.socket = secured;
    this.listen(secured);
  }

  async waitClosed(timeoutMs = 5_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return this.closed;
  }

  close(): void {
    this.socket.destroy();
  }
}
