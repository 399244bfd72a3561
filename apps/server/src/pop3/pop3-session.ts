import type { Socket } from 'node:net';
import type { SecureContext } from 'node:tls';
import { ClientSocket } from '../imap/client-socket.js';
import type { ImapAuthResult } from '../imap/imap-session.js';
import type { FolderMessageRow, FolderService } from '../modules/mail/index.js';
import {
  type Pop3Command,
  Pop3CommandReader,
  type Pop3ReaderEvent,
} from '../protocols/pop3/command-reader.js';
import {
  continuationResponse,
  DotStuffer,
  dotStuff,
  errResponse,
  multiLineResponse,
  okResponse,
  topOf,
} from '../protocols/pop3/response-writer.js';
import { decodeSaslPlain } from '../protocols/sasl/sasl-plain.js';

export const POP3_LIMITS = {
  maxClients: 1000,
  maxClientsPerSource: 20,
  /** before login */
  unauthenticatedTimeoutMs: 60_000,
  /** RFC 1939 section 3: the autologout timer is at least 10 minutes */
  authenticatedTimeoutMs: 10 * 60_000,
  maxAuthFailures: 3,
  /** how often a logged-in session checks that its login still stands */
  loginCheckMs: 60_000,
  /** bytes received but not yet read into commands before the socket is paused */
  maxPendingBytes: 64 * 1024,
};

export interface Pop3SessionDeps {
  folders: FolderService;
  authenticate(email: string, password: string, ip: string): Promise<ImapAuthResult>;
  secureContext(): SecureContext | null;
  sniCallback?: (
    servername: string,
    callback: (error: Error | null, context?: SecureContext) => void,
  ) => void;
  log: { info(message: string): void; warn(message: string): void };
}

export interface Pop3ConnectionInfo {
  remoteAddress: string;
  secure: boolean;
  plainLoginAllowed: boolean;
  /** aborted when the server shuts down: the session answers -ERR at its next read and closes */
  shutdown?: AbortSignal;
}

/**
 * One POP3 connection (RFC 1939) with CAPA (RFC 2449), STLS (RFC 2595), UIDL, TOP and SASL PLAIN
 * (RFC 5034), over the INBOX only. The messages are the INBOX as it was at login, numbered from 1;
 * DELE marks, RSET unmarks, and only QUIT in the TRANSACTION state deletes (RFC 1939 section 6).
 * UIDLs are the message ids: stable for the message's life, never reused.
 */
export class Pop3Session {
  private readonly client: ClientSocket;
  private reader = new Pop3CommandReader();
  private secure: boolean;
  private user: string | null = null;
  private mailboxId: number | null = null;
  private messages: FolderMessageRow[] = [];
  private deleted = new Set<number>();
  private authFailures = 0;
  private passwordHash: string | null = null;
  private loginCheckedAt = 0;

  constructor(
    socket: Socket,
    private readonly deps: Pop3SessionDeps,
    private readonly info: Pop3ConnectionInfo,
  ) {
    this.secure = info.secure;
    this.client = new ClientSocket(socket, {
      maxPendingBytes: POP3_LIMITS.maxPendingBytes,
      farewell: () => errResponse('autologout: idle for too long'),
      // RFC 2449 section 8.1.2 SYS/TEMP: a temporary failure, try again later. Closing without QUIT
      // never enters the UPDATE state (RFC 1939 section 6): messages marked with DELE stay.
      ...(info.shutdown
        ? {
            shutdown: {
              signal: info.shutdown,
              farewell: () => errResponse('server shutting down, try again later', 'SYS/TEMP'),
            },
          }
        : {}),
    });
    this.client.setIdleTimeout(POP3_LIMITS.unauthenticatedTimeoutMs);
  }

  async run(): Promise<void> {
    try {
      this.write(okResponse('Youju POP3 ready'));
      for (;;) {
        const event = await this.nextEvent();
        if (event === null) return;
        if (event.type === 'error') {
          this.write(errResponse(event.text));
          continue;
        }
        if (event.type === 'line') {
          this.write(errResponse('unexpected line'));
          continue;
        }
        if (!(await this.command(event.command))) return;
      }
    } catch (error) {
      if (!this.client.closed) {
        this.deps.log.warn(`pop3: session failed: ${(error as Error).message}`);
        this.write(errResponse('internal error', 'SYS/TEMP'));
      }
    } finally {
      this.close();
    }
  }

  private write(bytes: Buffer): void {
    this.client.write(bytes);
  }

  private close(): void {
    this.client.close();
  }

  private async nextEvent(): Promise<Pop3ReaderEvent | null> {
    for (;;) {
      if (this.client.closed) return null;
      const event = this.reader.next();
      if (event !== null) return event;
      const chunk = await this.client.nextChunk();
      if (chunk === null) return null;
      this.reader.push(chunk);
    }
  }

  private loginAllowed(): boolean {
    return this.secure || this.info.plainLoginAllowed;
  }

  private capabilities(): string[] {
    const lines = [
      'TOP',
      'UIDL',
      'RESP-CODES',
      'AUTH-RESP-CODE',
      'PIPELINING',
      'EXPIRE NEVER',
      'IMPLEMENTATION Youju',
    ];
    if (this.mailboxId === null) {
      if (!this.secure && this.deps.secureContext() !== null) lines.push('STLS');
      if (this.loginAllowed()) lines.push('USER', 'SASL PLAIN');
    }
    return lines;
  }

  /** One command; false ends the session. */
  private async command(command: Pop3Command): Promise<boolean> {
    const { name, args } = command;
    // A session outlives neither a password change nor a disabled or expired mailbox (checked at
    // most once a minute); QUIT then deletes nothing.
    if (this.mailboxId !== null && Date.now() - this.loginCheckedAt >= POP3_LIMITS.loginCheckMs) {
      this.loginCheckedAt = Date.now();
      if (!(await this.deps.folders.loginStillValid(this.mailboxId, this.passwordHash))) {
        this.write(errResponse('the login is no longer valid', 'AUTH'));
        return false;
      }
    }
    if (name === 'QUIT') return this.quit();
    if (name === 'CAPA') {
      this.write(multiLineResponse('capability list follows', this.capabilities()));
      return true;
    }
    if (this.mailboxId === null) return this.authorization(command);
    switch (name) {
      case 'NOOP':
        this.write(okResponse());
        return true;
      case 'STAT': {
        const live = this.live();
        this.write(okResponse(`${live.length} ${live.reduce((sum, entry) => sum + entry.message.size, 0)}`));
        return true;
      }
      case 'LIST':
      case 'UIDL': {
        const value = (entry: { number: number; message: FolderMessageRow }) =>
          `${entry.number} ${name === 'LIST' ? entry.message.size : entry.message.id}`;
        if (args.length === 0) {
          this.write(multiLineResponse(`${this.live().length} messages`, this.live().map(value)));
          return true;
        }
        const entry = this.entry(args[0]);
        if (entry) this.write(okResponse(value(entry)));
        return true;
      }
      case 'RETR':
      case 'TOP': {
        const entry = this.entry(args[0]);
        if (!entry) return true;
        let lines: number | null = null;
        if (name === 'TOP') {
          if (!/^[0-9]{1,9}$/.test(args[1] ?? '')) {
            this.write(errResponse('TOP needs a message number and a line count'));
            return true;
          }
          lines = Number(args[1]);
        }
        await this.send(entry.message, lines);
        return true;
      }
      case 'DELE': {
        const entry = this.entry(args[0]);
        if (!entry) return true;
        this.deleted.add(entry.message.id);
        this.write(okResponse(`message ${entry.number} deleted`));
        return true;
      }
      case 'RSET':
        this.deleted.clear();
        this.write(okResponse(`${this.messages.length} messages`));
        return true;
    }
    this.write(errResponse('unknown command'));
    return true;
  }

  /** Messages not marked deleted, with their numbers. */
  private live(): { number: number; message: FolderMessageRow }[] {
    return this.messages
      .map((message, index) => ({ number: index + 1, message }))
      .filter((entry) => !this.deleted.has(entry.message.id));
  }

  /** The message a number names, or null after answering -ERR. */
  private entry(argument: string | undefined): { number: number; message: FolderMessageRow } | null {
    const number = /^[0-9]{1,9}$/.test(argument ?? '') ? Number(argument) : 0;
    const message = this.messages[number - 1];
    if (!message || this.deleted.has(message.id)) {
      this.write(errResponse(message ? 'message already deleted' : 'no such message'));
      return null;
    }
    return { number, message };
  }

  private async send(message: FolderMessageRow, lines: number | null): Promise<void> {
    if (lines !== null) {
      // The header and a few lines: the first chunks hold them for any sensible count.
      const head = await this.deps.folders.rawHead(message.raw_id, 256 * 1024);
      if (head.length === 0) {
        this.write(errResponse('message deleted meanwhile'));
        return;
      }
      const top = topOf(head, lines);
      this.write(Buffer.concat([okResponse('top of message follows'), dotStuff(top)]));
      return;
    }
    const stuffer = new DotStuffer();
    let first = true;
    for await (const chunk of this.deps.folders.raw(message.raw_id) as AsyncIterable<Buffer>) {
      if (first) await this.client.writeAndDrain(okResponse(`${message.size} octets`));
      first = false;
      await this.client.writeAndDrain(stuffer.push(chunk));
    }
    if (first) {
      this.write(errResponse('message deleted meanwhile'));
      return;
    }
    await this.client.writeAndDrain(stuffer.end());
  }

  private async quit(): Promise<false> {
    if (this.mailboxId !== null && this.deleted.size > 0) {
      // UPDATE state (RFC 1939 section 6): the marked messages go now, and only now.
      try {
        await this.deps.folders.expunge(this.mailboxId, [...this.deleted]);
      } catch (error) {
        this.deps.log.warn(`pop3: deleting at QUIT failed: ${(error as Error).message}`);
        this.write(errResponse('some deleted messages not removed', 'SYS/TEMP'));
        return false;
      }
    }
    this.write(okResponse('bye'));
    return false;
  }

  private async authorization(command: Pop3Command): Promise<boolean> {
    switch (command.name) {
      case 'STLS':
        return this.startTls();
      case 'USER':
        if (!this.loginAllowed()) {
          this.write(errResponse('log in over TLS (STLS or POP3S)'));
          return true;
        }
        if (command.args.length !== 1) {
          this.write(errResponse('USER needs a mailbox address'));
          return true;
        }
        this.user = command.args[0] as string;
        this.write(okResponse('send PASS'));
        return true;
      case 'PASS': {
        if (this.user === null) {
          this.write(errResponse('USER first'));
          return true;
        }
        const user = this.user;
        this.user = null;
        // RFC 1939 section 7: the password is the rest of the line, spaces and all
        return this.login(user, command.rest);
      }
      case 'AUTH':
        return this.auth(command);
    }
    this.write(errResponse('log in first'));
    return true;
  }

  private startTls(): boolean {
    const context = this.deps.secureContext();
    if (this.secure || context === null) {
      this.write(errResponse('STLS is not available here'));
      return true;
    }
    this.write(okResponse('begin TLS negotiation'));
    // RFC 2595 section 4: what came before the handshake is dropped
    this.reader = new Pop3CommandReader();
    this.client.startTls(context, this.deps.sniCallback, POP3_LIMITS.unauthenticatedTimeoutMs);
    this.secure = true;
    return true;
  }

  private async auth(command: Pop3Command): Promise<boolean> {
    if ((command.args[0] ?? '').toUpperCase() !== 'PLAIN') {
      this.write(errResponse('only AUTH PLAIN is supported'));
      return true;
    }
    if (!this.loginAllowed()) {
      this.write(errResponse('log in over TLS (STLS or POP3S)'));
      return true;
    }
    let response = command.args[1];
    if (response === undefined) {
      this.write(continuationResponse());
      this.reader.expectLine();
      const event = await this.nextEvent();
      if (event === null) return false;
      if (event.type !== 'line') {
        this.write(errResponse('expected a SASL response'));
        return true;
      }
      response = event.line;
    }
    if (response.trim() === '*') {
      this.write(errResponse('authentication cancelled'));
      return true;
    }
    const credentials = decodeSaslPlain(response === '=' ? '' : response);
    if (credentials === null) {
      this.write(errResponse('not a SASL PLAIN response'));
      return true;
    }
    if (
      credentials.authorizationId !== '' &&
      credentials.authorizationId.toLowerCase() !== credentials.authenticationId.toLowerCase()
    ) {
      this.write(errResponse('cannot act as another user', 'AUTH'));
      return true;
    }
    return this.login(credentials.authenticationId, credentials.password);
  }

  private async login(user: string, password: string): Promise<boolean> {
    const result = await this.deps.authenticate(user, password, this.info.remoteAddress);
    if (!result.ok) {
      this.authFailures++;
      this.write(errResponse(result.text, result.reason === 'throttled' ? 'LOGIN-DELAY' : 'AUTH'));
      return this.authFailures < POP3_LIMITS.maxAuthFailures;
    }
    this.mailboxId = result.mailboxId;
    this.passwordHash = result.passwordHash;
    this.loginCheckedAt = Date.now();
    this.messages = await this.deps.folders.messages(result.mailboxId, 'inbox');
    this.client.setIdleTimeout(POP3_LIMITS.authenticatedTimeoutMs);
    this.deps.log.info(`pop3: ${result.address} logged in from ${this.info.remoteAddress}`);
    this.write(okResponse(`${this.messages.length} messages`));
    return true;
  }
}
