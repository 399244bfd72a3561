import type { X509Certificate } from 'node:crypto';
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls, type TLSSocket } from 'node:tls';

/** One SMTP reply: its code and its text (the lines after the codes, joined with `\n`). */
export interface SmtpReply {
  code: number;
  text: string;
}

/** What {@link SmtpClient.read} gives once the server has closed the connection. */
const CLOSED: SmtpReply = { code: 0, text: 'closed' };

/**
 * A raw SMTP client over a real socket, the one every test that talks SMTP uses: it sends exactly
 * the bytes it is given, so tests can also send what well-behaved clients never would (bare LF,
 * oversize DATA), and reads replies whole (RFC 5321 section 4.2: continuation lines have `-` after
 * the code). Over plain TCP, implicit TLS (RFC 8314 section 3.3) or STARTTLS (RFC 3207).
 */
export class SmtpClient {
  private buffer = '';
  private waiters: ((reply: SmtpReply) => void)[] = [];
  private replies: SmtpReply[] = [];
  private current: Socket | TLSSocket;
  closed = false;

  private constructor(socket: Socket | TLSSocket) {
    this.current = socket;
    this.listen(socket);
  }

  /** Connects over plain TCP to 127.0.0.1 (or `host`), from `localAddress` when given (127.0.0.2 …). */
  static async connect(
    port: number,
    options: { localAddress?: string; host?: string } = {},
  ): Promise<SmtpClient> {
    const socket = connectTcp({
      port,
      host: options.host ?? '127.0.0.1',
      ...(options.localAddress ? { localAddress: options.localAddress } : {}),
    });
    const client = new SmtpClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return client;
  }

  /** Connects with implicit TLS (SMTPS): the handshake with SNI `servername` first, then the greeting. */
  static async connectTls(port: number, servername: string): Promise<SmtpClient> {
    const socket = connectTls({ port, host: '127.0.0.1', servername, rejectUnauthorized: false });
    const client = new SmtpClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('secureConnect', resolve);
      socket.once('error', reject);
    });
    return client;
  }

  get socket(): Socket | TLSSocket {
    return this.current;
  }

  /** The certificate the server presented, on a TLS connection. */
  peerCertificate(): X509Certificate | undefined {
    return 'getPeerX509Certificate' in this.current ? this.current.getPeerX509Certificate() : undefined;
  }

  /** The next reply, or `{ code: 0, text: 'closed' }` once the server has closed the connection. */
  read(): Promise<SmtpReply> {
    const ready = this.replies.shift();
    if (ready) return Promise.resolve(ready);
    if (this.closed) return Promise.resolve(CLOSED);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Sends one command line and reads its reply. */
  async command(line: string): Promise<SmtpReply> {
    this.current.write(`${line}\r\n`);
    return this.read();
  }

  /**
   * After the server's 220 to STARTTLS: the TLS handshake with SNI `servername` over this same
   * connection; later commands and replies travel inside it (RFC 3207 section 4).
   */
  async startTls(servername: string): Promise<void> {
    const plain = this.current;
    plain.off('data', this.onData);
    this.current = await new Promise<TLSSocket>((resolve, reject) => {
      const secure = connectTls({ socket: plain, servername, rejectUnauthorized: false }, () =>
        resolve(secure),
      );
      secure.once('error', reject);
    });
    this.listen(this.current);
  }

  /** Sends DATA content, dot-stuffed (RFC 5321 section 4.5.2), and the terminator. */
  async data(content: Buffer): Promise<SmtpReply> {
    const start = await this.command('DATA');
    if (start.code !== 354) return start;
    let body = content;
    if (body.length > 0 && body[0] === 0x2e) body = Buffer.concat([Buffer.from('.'), body]);
    const stuffed = Buffer.from(body.toString('latin1').replace(/\r\n\./g, '\r\n..'), 'latin1');
    const ending = stuffed.length === 0 || stuffed.subarray(-2).toString() === '\r\n' ? '.\r\n' : '\r\n.\r\n';
    // Wait for the buffer to drain, or for the socket to close: a server killed mid-DATA never
    // drains it, and the sender must then see the failure instead of waiting forever.
    await new Promise<void>((resolve) => {
      if (this.closed || this.current.write(stuffed)) return resolve();
      const done = () => {
        this.current.off('drain', done);
        this.current.off('close', done);
        resolve();
      };
      this.current.once('drain', done);
      this.current.once('close', done);
    });
    this.current.write(ending);
    return this.read();
  }

  /** Says QUIT (without waiting for the answer) and closes the connection. */
  async quit(): Promise<void> {
    if (!this.closed) {
      this.current.write('QUIT\r\n');
      this.current.end();
    }
  }

  /** Drops the connection without a word, as a client that goes away does. */
  destroy(): void {
    this.current.destroy();
  }

  private readonly onData = (chunk: Buffer) => {
    this.buffer += chunk.toString('latin1');
    for (;;) {
      // A reply ends with the first line that has a space after its code.
      const end = this.buffer.search(/^\d{3} .*\r\n/m);
      if (end < 0) break;
      const lineEnd = this.buffer.indexOf('\r\n', end) + 2;
      const block = this.buffer.slice(0, lineEnd);
      this.buffer = this.buffer.slice(lineEnd);
      const lines = block.trimEnd().split('\r\n');
      const last = lines[lines.length - 1] ?? '';
      const reply = { code: Number(last.slice(0, 3)), text: lines.map((line) => line.slice(4)).join('\n') };
      const waiter = this.waiters.shift();
      if (waiter) waiter(reply);
      else this.replies.push(reply);
    }
  };

  private listen(socket: Socket | TLSSocket): void {
    socket.on('data', this.onData);
    socket.on('close', () => {
      this.closed = true;
      for (const waiter of this.waiters.splice(0)) waiter(CLOSED);
    });
    socket.on('error', () => undefined);
  }
}

/** The reply code of the greeting a client connecting from `localAddress` gets (then QUIT). */
export async function smtpGreeting(port: number, localAddress?: string): Promise<number> {
  const client = await SmtpClient.connect(port, localAddress ? { localAddress } : {});
  const timeout = setTimeout(() => client.destroy(), 5000);
  try {
    const greeting = await client.read();
    if (greeting === CLOSED) throw new Error('no SMTP greeting within 5 s');
    return greeting.code;
  } finally {
    clearTimeout(timeout);
    await client.quit();
  }
}

export interface SendResult {
  greeting: SmtpReply;
  mailFrom?: SmtpReply;
  rcpt: SmtpReply[];
  data?: SmtpReply;
}

/** One complete SMTP transaction; stops at the first refusal like a real client. */
export async function sendMail(
  port: number,
  options: { from?: string; to: string[]; content: Buffer; size?: number },
): Promise<SendResult> {
  const client = await SmtpClient.connect(port);
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
    if (!result.rcpt.some((reply) => reply.code === 250)) return result;
    result.data = await client.data(options.content);
    return result;
  } finally {
    await client.quit();
  }
}

/**
 * SMTP load for the crash and shutdown tests: `sessions` senders, a connection per message, sending
 * `message(index)` until `stop()`. Records what was sent and what was answered 250; a refusal or a
 * connection that went away counts as not acknowledged.
 */
export function smtpLoad(
  port: number,
  to: string,
  message: (index: number) => Buffer,
  sessions = 6,
): { sent: Map<number, Buffer>; acknowledged: Set<number>; stop(): Promise<void> } {
  const sent = new Map<number, Buffer>();
  const acknowledged = new Set<number>();
  let next = 0;
  let stopped = false;
  const sender = async () => {
    while (!stopped) {
      const index = next++;
      const content = message(index);
      sent.set(index, content);
      try {
        const result = await sendMail(port, { to: [to], content });
        if (result.data?.code === 250) acknowledged.add(index);
      } catch {
        // the server closed its listener or went away mid-transaction
      }
    }
  };
  const senders = Array.from({ length: sessions }, sender);
  return {
    sent,
    acknowledged,
    async stop() {
      stopped = true;
      await Promise.allSettled(senders);
    },
  };
}

/**
 * A multipart/mixed message (boundary `b`) with CRLF line ends: `headers` on top, a UTF-8 text part,
 * then one attachment with its own header lines and body.
 */
export function messageWithAttachment(
  headers: string[],
  text: string,
  attachment: { headers: string[]; body: string },
): Buffer {
  return Buffer.from(
    [
      ...headers,
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b"',
      '',
      '--b',
      'Content-Type: text/plain; charset=utf-8',
      '',
      text,
      '--b',
      ...attachment.headers,
      '',
      attachment.body,
      '--b--',
      '',
    ].join('\r\n'),
  );
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

/**
 * A message as stored after it came in over SMTP: the header fields the inbound checks put in front
 * of it (`Received-SPF`, `Authentication-Results`, RFC 8601) and the bytes received, unchanged.
 */
export function splitAddedHeaders(stored: Buffer): { added: Buffer; message: Buffer } {
  let end = 0;
  let inAdded = false;
  for (;;) {
    const lineEnd = stored.indexOf('\r\n', end);
    if (lineEnd < 0) break;
    const line = stored.subarray(end, lineEnd).toString('latin1');
    const starts = /^(Received-SPF|Authentication-Results):/i.test(line);
    const continues = inAdded && /^[ \t]/.test(line);
    if (!starts && !continues) break;
    inAdded = true;
    end = lineEnd + 2;
  }
  return { added: stored.subarray(0, end), message: stored.subarray(end) };
}
