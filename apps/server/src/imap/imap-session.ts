import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import type { SecureContext } from 'node:tls';
import {
  FolderError,
  type FolderMessageRow,
  type FolderName,
  type FolderService,
  type MailFolderRow,
} from '../modules/mail/index.js';
import {
  type ImapCommand,
  ImapCommandReader,
  type ImapReaderEvent,
} from '../protocols/imap/command-reader.js';
import {
  type FetchAttribute,
  fetchResponseName,
  parseFetchArguments,
  type Section,
} from '../protocols/imap/fetch-attributes.js';
import { astringOf, ImapSyntaxError, type ImapValue, keywordOf } from '../protocols/imap/imap-value.js';
import { formatInternalDate, parseInternalDate } from '../protocols/imap/internal-date.js';
import { decodeMailboxName, encodeMailboxName } from '../protocols/imap/mailbox-name.js';
import {
  binaryContent,
  bodyPartOf,
  envelopeOf,
  parseMimeTree,
  sectionBytes,
} from '../protocols/imap/message-parts.js';
import { bodyStructureData, envelopeData } from '../protocols/imap/message-structure.js';
import {
  continuationRequest,
  formatData,
  type ImapData,
  type ResponseCode,
  taggedResponse,
  untaggedData,
  untaggedStatus,
} from '../protocols/imap/response-writer.js';
import { parseSearchArguments } from '../protocols/imap/search-keys.js';
import {
  formatSequenceSet,
  parseSequenceSet as parseSequenceSetStrict,
  resolveSequenceSet,
  type SequenceSet,
  sequenceSetMatcher,
} from '../protocols/imap/sequence-set.js';
import { flagOf, parseStoreArguments } from '../protocols/imap/store-arguments.js';
import { decodeSaslPlain } from '../protocols/sasl/sasl-plain.js';
import { ClientSocket } from './client-socket.js';
import { applyFlags, type FlagState, flagChanges, flagsOf, SYSTEM_FLAGS, sameFlags } from './imap-flags.js';
import { folderByWireName, IMAP_FOLDERS, listPattern, wireNameOf } from './imap-folders.js';
import { type SearchText, searchMessages } from './imap-search.js';

export const IMAP_LIMITS = {
  /** simultaneous connections in all */
  maxClients: 1000,
  /** simultaneous connections from one source (an IPv4 address, an IPv6 /64) */
  maxClientsPerSource: 20,
  /** octets of a command line outside its literals */
  maxLineBytes: 64 * 1024,
  /** literals before login (a LOGIN's strings) */
  maxLiteralBytesBeforeLogin: 8 * 1024,
  /** RFC 3501 section 5.4: at least 30 minutes once logged in (also IDLE, RFC 2177) */
  authenticatedTimeoutMs: 30 * 60_000,
  /** before login: a client that says nothing is gone */
  unauthenticatedTimeoutMs: 60_000,
  /** failed LOGIN/AUTHENTICATE before the connection is closed */
  maxAuthFailures: 3,
  /** messages whose raw bytes are read whole for FETCH; larger ones are streamed */
  inMemoryBodyBytes: 1024 * 1024,
  /** bytes received but not yet read into commands before the socket is paused */
  maxPendingBytes: 1024 * 1024,
  /** ids per statement for bulk changes */
  batch: 500,
  /** how often a logged-in session checks that its login still stands (password, disabled, expired) */
  loginCheckMs: 60_000,
};

export type ImapAuthResult =
  /** `passwordHash`: kept in memory to notice a password change (never logged) */
  | { ok: true; mailboxId: number; address: string; passwordHash: string | null }
  | { ok: false; reason: 'wrong' | 'refused' | 'throttled'; text: string };

export interface ImapSessionDeps {
  folders: FolderService;
  authenticate(email: string, password: string, ip: string): Promise<ImapAuthResult>;
  /** the context STARTTLS upgrades with, null when there is none */
  secureContext(): SecureContext | null;
  sniCallback?: (
    servername: string,
    callback: (error: Error | null, context?: SecureContext) => void,
  ) => void;
  log: { info(message: string): void; warn(message: string): void };
  limits?: Partial<typeof IMAP_LIMITS>;
}

export interface ImapConnectionInfo {
  remoteAddress: string;
  /** TLS from the first byte (IMAPS) */
  secure: boolean;
  /** whether LOGIN may happen without TLS (loopback clients, API.md "Standard mail clients") */
  plainLoginAllowed: boolean;
  /** aborted when the server shuts down: the session says BYE at its next read */
  shutdown?: AbortSignal;
}

interface SelectedFolder {
  /** the `mail_folders` row */
  id: number;
  name: FolderName;
  readOnly: boolean;
  uidvalidity: number;
  highestModseq: number;
  uidnext: number;
  messages: FolderMessageRow[];
}

/** A command the client got wrong: answered BAD (or NO) without closing. */
class CommandError extends Error {
  constructor(
    readonly condition: 'NO' | 'BAD',
    message: string,
    readonly code?: ResponseCode,
  ) {
    super(message);
  }
}

/**
 * One IMAP4rev1 connection (RFC 3501) with IDLE (RFC 2177), UIDPLUS (RFC 4315), MOVE (RFC 6851),
 * SPECIAL-USE (RFC 6154), LITERAL+ (RFC 7888), ENABLE (RFC 5161), NAMESPACE (RFC 2342), ID
 * (RFC 2971), UNSELECT (RFC 3691), CONDSTORE (RFC 7162), BINARY (RFC 3516) and, after
 * `ENABLE IMAP4rev2`, the RFC 9051 rules listed in README.md. Commands run one at a time; the
 * selected folder is a list of the messages the client knows (sequence number = index + 1), brought
 * up to date from the store (`sync`) after each command and, during IDLE, when the folder's modseq
 * moves (polled, and at once on new mail in this process).
 */
export class ImapSession {
  private readonly client: ClientSocket;
  private reader: ImapCommandReader;
  private readonly limits: typeof IMAP_LIMITS;
  private secure: boolean;
  private mailboxId: number | null = null;
  private address = '';
  private passwordHash: string | null = null;
  private loginCheckedAt = 0;
  private authFailures = 0;
  private selected: SelectedFolder | null = null;
  private condstore = false;
  /** `ENABLE IMAP4rev2` was accepted: RFC 9051 rules from then on (see README) */
  private rev2 = false;
  private syncing: Promise<void> = Promise.resolve();

  constructor(
    socket: Socket,
    private readonly deps: ImapSessionDeps,
    private readonly info: ImapConnectionInfo,
  ) {
    this.secure = info.secure;
    this.limits = { ...IMAP_LIMITS, ...deps.limits };
    this.reader = this.newReader();
    this.client = new ClientSocket(socket, {
      maxPendingBytes: this.limits.maxPendingBytes,
      farewell: () => untaggedStatus('BYE', 'autologout: idle for too long'),
      // RFC 3501 section 7.1.5: BYE, the server is closing the connection; RFC 5530 UNAVAILABLE.
      ...(info.shutdown
        ? {
            shutdown: {
              signal: info.shutdown,
              farewell: () =>
                untaggedStatus('BYE', 'server shutting down, try again later', { name: 'UNAVAILABLE' }),
            },
          }
        : {}),
    });
    this.client.setIdleTimeout(this.limits.unauthenticatedTimeoutMs);
  }

  /** Greets and serves commands until LOGOUT or the connection ends. */
  async run(): Promise<void> {
    try {
      this.write(
        untaggedStatus('OK', 'Youju IMAP4rev1 ready', {
          name: 'CAPABILITY',
          capabilities: this.capabilities(),
        }),
      );
      for (;;) {
        const event = await this.nextEvent();
        if (event === null) return;
        if (!(await this.handleEvent(event))) return;
      }
    } catch (error) {
      if (!this.client.closed) {
        this.deps.log.warn(`imap: session failed: ${(error as Error).message}`);
        this.write(untaggedStatus('BYE', 'internal error'));
      }
    } finally {
      this.close();
    }
  }

  private newReader(): ImapCommandReader {
    return new ImapCommandReader({
      maxLineBytes: this.limits.maxLineBytes,
      maxLiteralBytes: this.limits.maxLiteralBytesBeforeLogin,
      maxSkipBytes: 1024 * 1024 * 1024,
      literalPlus: 'LITERAL+',
    });
  }

  private write(bytes: Buffer): void {
    this.client.write(bytes);
  }

  private close(): void {
    this.client.close();
  }

  private async nextEvent(): Promise<ImapReaderEvent | null> {
    for (;;) {
      if (this.client.closed) return null;
      const event = this.reader.next();
      if (event !== null) return event;
      const chunk = await this.client.nextChunk();
      if (chunk === null) return null;
      this.reader.push(chunk);
    }
  }

  private async handleEvent(event: ImapReaderEvent): Promise<boolean> {
    switch (event.type) {
      case 'continue':
        this.write(continuationRequest('Ready for literal data'));
        return true;
      case 'line':
        // a line nobody asked for (IDLE's DONE arrives inside idle())
        this.write(untaggedStatus('BAD', 'unexpected line'));
        return true;
      case 'bad':
        if (event.tag === null) this.write(untaggedStatus('BAD', event.text));
        else this.write(taggedResponse(event.tag, 'BAD', event.text));
        if (event.close) {
          this.write(untaggedStatus('BYE', 'cannot follow the command stream'));
          return false;
        }
        return true;
      case 'command':
        return this.command(event.command);
    }
  }

  private capabilities(): string[] {
    const capabilities = [
      'IMAP4rev1',
      // RFC 9051 section 7.2.2: both are listed; the client picks rev2 with ENABLE
      'IMAP4rev2',
      'LITERAL+',
      'SASL-IR',
      'ID',
      'ENABLE',
      'IDLE',
      'NAMESPACE',
      'UNSELECT',
      'CHILDREN',
    ];
    if (this.mailboxId === null) {
      if (!this.secure && this.deps.secureContext() !== null) capabilities.push('STARTTLS');
      if (this.loginAllowed()) capabilities.push('AUTH=PLAIN');
      else capabilities.push('LOGINDISABLED');
    } else {
      capabilities.push('UIDPLUS', 'MOVE', 'SPECIAL-USE', 'CONDSTORE', 'BINARY', 'ESEARCH', 'STATUS=SIZE');
    }
    return capabilities;
  }

  private loginAllowed(): boolean {
    return this.secure || this.info.plainLoginAllowed;
  }

  /** False (after BYE) when the mailbox was disabled, expired, deleted or given a new password. */
  private async loginStands(): Promise<boolean> {
    if (this.mailboxId === null || Date.now() - this.loginCheckedAt < this.limits.loginCheckMs) return true;
    this.loginCheckedAt = Date.now();
    if (await this.deps.folders.loginStillValid(this.mailboxId, this.passwordHash)) return true;
    this.write(untaggedStatus('BYE', 'the login is no longer valid (password changed or mailbox disabled)'));
    this.close();
    return false;
  }

  private async command(command: ImapCommand): Promise<boolean> {
    const { tag } = command;
    if (!(await this.loginStands())) return false;
    try {
      const result = await this.dispatch(command);
      if (result === 'logout') {
        this.write(untaggedStatus('BYE', 'logging out'));
        this.write(taggedResponse(tag, 'OK', 'LOGOUT completed'));
        return false;
      }
      if (result === 'close') return false;
      return true;
    } catch (error) {
      if (error instanceof CommandError) {
        this.write(taggedResponse(tag, error.condition, error.message, error.code));
        return true;
      }
      if (error instanceof ImapSyntaxError) {
        this.write(
          taggedResponse(
            tag,
            'BAD',
            error.message,
            error.code === 'BADCHARSET' ? { name: 'BADCHARSET', charsets: ['UTF-8'] } : undefined,
          ),
        );
        return true;
      }
      if (error instanceof FolderError) {
        const code: ResponseCode =
          error.reason === 'quota'
            ? { name: 'OVERQUOTA' }
            : error.reason === 'too-big'
              ? { name: 'TOOBIG' }
              : { name: 'NONEXISTENT' };
        this.write(taggedResponse(tag, 'NO', error.message, code));
        return true;
      }
      this.deps.log.warn(`imap: ${command.command} failed: ${(error as Error).message}`);
      this.write(taggedResponse(tag, 'NO', 'server error, try again', { name: 'SERVERBUG' }));
      return true;
    }
  }

  private requireAuth(): number {
    if (this.mailboxId === null) throw new CommandError('BAD', 'log in first');
    return this.mailboxId;
  }

  private requireSelected(): SelectedFolder {
    this.requireAuth();
    if (this.selected === null) throw new CommandError('BAD', 'select a folder first');
    return this.selected;
  }

  private ok(tag: string, text: string, code?: ResponseCode): void {
    this.write(taggedResponse(tag, 'OK', text, code));
  }

  private async dispatch(command: ImapCommand): Promise<'logout' | 'close' | undefined> {
    const { tag, args } = command;
    switch (command.command) {
      case 'CAPABILITY':
        this.write(untaggedData([{ atom: 'CAPABILITY' }, ...this.capabilities().map((atom) => ({ atom }))]));
        this.ok(tag, 'CAPABILITY completed');
        return;
      case 'NOOP':
      case 'CHECK':
        if (this.selected) await this.sync(true);
        this.ok(tag, `${command.command} completed`);
        return;
      case 'LOGOUT':
        return 'logout';
      case 'ID':
        this.write(untaggedData([{ atom: 'ID' }, ['name', 'Youju', 'vendor', 'Youju']]));
        this.ok(tag, 'ID completed');
        return;
      case 'STARTTLS':
        return this.startTls(tag);
      case 'LOGIN':
        return this.login(tag, astringOf(args[0], 'user name'), astringOf(args[1], 'password'));
      case 'AUTHENTICATE':
        return this.authenticate(tag, args);
    }
    this.requireAuth();
    switch (command.command) {
      case 'ENABLE': {
        // RFC 5161 section 3.1: only what was not already on is listed as ENABLED
        const enabled: string[] = [];
        for (const name of args.map((arg) => keywordOf(arg))) {
          if (name === 'CONDSTORE' && !this.condstore && !enabled.includes(name)) {
            this.condstore = true;
            enabled.push(name);
          } else if (name === 'IMAP4REV2' && !this.rev2) {
            this.rev2 = true;
            enabled.push('IMAP4rev2');
          }
        }
        this.write(untaggedData([{ atom: 'ENABLED' }, ...enabled.map((atom) => ({ atom: atom as string }))]));
        this.ok(tag, 'ENABLE completed');
        return;
      }
      case 'NAMESPACE':
        this.write(untaggedData([{ atom: 'NAMESPACE' }, [['', '/']], null, null]));
        this.ok(tag, 'NAMESPACE completed');
        return;
      case 'LIST':
      case 'LSUB':
        await this.list(command.command, args);
        this.ok(tag, `${command.command} completed`);
        return;
      case 'STATUS':
        await this.status(args);
        this.ok(tag, 'STATUS completed');
        return;
      case 'SELECT':
      case 'EXAMINE':
        return this.select(tag, args, command.command === 'EXAMINE');
      case 'CREATE':
      case 'DELETE':
      case 'RENAME': {
        const name = decodeMailboxName(astringOf(args[0], 'folder name'));
        const fixed = folderByWireName(name) !== null;
        throw new CommandError(
          'NO',
          fixed
            ? 'this folder cannot be changed'
            : 'only the folders INBOX, Sent, Drafts, Junk and Trash exist',
          fixed && command.command === 'CREATE' ? { name: 'ALREADYEXISTS' } : { name: 'CANNOT' },
        );
      }
      case 'SUBSCRIBE':
      case 'UNSUBSCRIBE':
        this.ok(tag, `${command.command} completed`);
        return;
      case 'APPEND':
        return this.append(tag, args);
      case 'IDLE':
        return this.idle(tag);
    }
    const selected = this.requireSelected();
    switch (command.command) {
      case 'CLOSE':
        if (!selected.readOnly) await this.expungeDeleted(selected, null, false);
        this.selected = null;
        this.ok(tag, 'CLOSE completed');
        return;
      case 'UNSELECT':
        this.selected = null;
        this.ok(tag, 'UNSELECT completed');
        return;
      case 'EXPUNGE':
        this.writable(selected);
        await this.expungeDeleted(selected, null, true);
        this.ok(tag, 'EXPUNGE completed');
        return;
      case 'UID EXPUNGE': {
        this.writable(selected);
        const set = this.sequenceArg(args[0]);
        await this.expungeDeleted(selected, set, true);
        this.ok(tag, 'UID EXPUNGE completed');
        return;
      }
      case 'SEARCH':
      case 'UID SEARCH':
        await this.search(tag, args, command.command === 'UID SEARCH');
        return;
      case 'FETCH':
      case 'UID FETCH':
        await this.fetch(args, command.command === 'UID FETCH');
        await this.sync(command.command === 'UID FETCH');
        this.ok(tag, `${command.command} completed`);
        return;
      case 'STORE':
      case 'UID STORE':
        await this.store(tag, args, command.command === 'UID STORE');
        return;
      case 'COPY':
      case 'UID COPY':
      case 'MOVE':
      case 'UID MOVE':
        await this.copyOrMove(
          tag,
          args,
          command.command.startsWith('UID '),
          command.command.endsWith('MOVE'),
        );
        return;
    }
    throw new CommandError('BAD', `unknown command ${command.command.slice(0, 40)}`);
  }

  // ---- not authenticated ----

  private startTls(tag: string): 'close' | undefined {
    const context = this.deps.secureContext();
    if (this.secure || context === null) throw new CommandError('BAD', 'STARTTLS is not available here');
    if (this.mailboxId !== null) throw new CommandError('BAD', 'already logged in');
    this.write(taggedResponse(tag, 'OK', 'begin TLS negotiation now'));
    // RFC 3501 section 6.2.1: what the client sent after STARTTLS before the handshake is dropped
    // (command injection, CVE-2011-0411 style).
    this.reader = this.newReader();
    this.client.startTls(context, this.deps.sniCallback, this.limits.unauthenticatedTimeoutMs);
    this.secure = true;
    return undefined;
  }

  private async login(tag: string, user: string, password: string): Promise<'close' | undefined> {
    if (this.mailboxId !== null) throw new CommandError('BAD', 'already logged in');
    if (!this.loginAllowed()) {
      throw new CommandError('NO', 'log in over TLS (STARTTLS or IMAPS)', { name: 'PRIVACYREQUIRED' });
    }
    const result = await this.deps.authenticate(user, password, this.info.remoteAddress);
    if (!result.ok) {
      this.authFailures++;
      const code: ResponseCode =
        result.reason === 'throttled'
          ? { name: 'UNAVAILABLE' }
          : result.reason === 'refused'
            ? { name: 'AUTHORIZATIONFAILED' }
            : { name: 'AUTHENTICATIONFAILED' };
      this.write(taggedResponse(tag, 'NO', result.text, code));
      if (this.authFailures >= this.limits.maxAuthFailures) {
        this.write(untaggedStatus('BYE', 'too many failed logins'));
        return 'close';
      }
      return undefined;
    }
    this.mailboxId = result.mailboxId;
    this.address = result.address;
    this.passwordHash = result.passwordHash;
    this.loginCheckedAt = Date.now();
    this.reader.setLiteralLimit(await this.deps.folders.maxMessageBytes());
    this.client.setIdleTimeout(this.limits.authenticatedTimeoutMs);
    this.deps.log.info(`imap: ${this.address} logged in from ${this.info.remoteAddress}`);
    this.ok(tag, 'logged in', { name: 'CAPABILITY', capabilities: this.capabilities() });
    return undefined;
  }

  private async authenticate(tag: string, args: ImapValue[]): Promise<'close' | undefined> {
    if (this.mailboxId !== null) throw new CommandError('BAD', 'already logged in');
    const mechanism = keywordOf(args[0]);
    if (mechanism !== 'PLAIN')
      throw new CommandError('NO', 'only AUTHENTICATE PLAIN is supported', { name: 'CANNOT' });
    if (!this.loginAllowed()) {
      throw new CommandError('NO', 'log in over TLS (STARTTLS or IMAPS)', { name: 'PRIVACYREQUIRED' });
    }
    let response: string;
    if (args[1] !== undefined) {
      // SASL-IR (RFC 4959): the initial response on the command line; "=" is an empty one
      response = astringOf(args[1], 'initial response');
      if (response === '=') response = '';
    } else {
      this.write(continuationRequest(''));
      this.reader.expectLine();
      const event = await this.nextEvent();
      if (event === null) return 'close';
      if (event.type !== 'line') throw new CommandError('BAD', 'expected a SASL response');
      response = event.line.toString('latin1');
    }
    if (response.trim() === '*') throw new CommandError('BAD', 'authentication cancelled');
    const credentials = decodeSaslPlain(response);
    if (credentials === null) throw new CommandError('BAD', 'not a SASL PLAIN response');
    if (
      credentials.authorizationId !== '' &&
      credentials.authorizationId.toLowerCase() !== credentials.authenticationId.toLowerCase()
    ) {
      throw new CommandError('NO', 'cannot act as another user', { name: 'AUTHORIZATIONFAILED' });
    }
    return this.login(tag, credentials.authenticationId, credentials.password);
  }

  // ---- authenticated ----

  private folderArg(value: ImapValue | undefined): FolderName {
    const name = decodeMailboxName(astringOf(value, 'folder name'));
    const folder = folderByWireName(name);
    if (folder === null) throw new CommandError('NO', 'no such folder', { name: 'NONEXISTENT' });
    return folder;
  }

  private async list(kind: 'LIST' | 'LSUB', args: ImapValue[]): Promise<void> {
    let at = 0;
    let onlySpecialUse = false;
    // RFC 9051 section 6.3.9: every folder here is subscribed (SUBSCRIBE keeps nothing), so the
    // SUBSCRIBED selection lists them all, marked \Subscribed, as RETURN (SUBSCRIBED) does.
    let subscribed = false;
    const first = args[0];
    if (kind === 'LIST' && first?.type === 'list') {
      onlySpecialUse = first.items.some((item) => keywordOf(item) === 'SPECIAL-USE');
      subscribed = first.items.some((item) => keywordOf(item) === 'SUBSCRIBED');
      at = 1;
    }
    const reference = decodeMailboxName(astringOf(args[at], 'reference'));
    const patternArg = args[at + 1];
    const patterns = (patternArg?.type === 'list' ? patternArg.items : [patternArg]).map((value) =>
      decodeMailboxName(astringOf(value, 'pattern')),
    );
    let statusItems: string[] | null = null;
    if (keywordOf(args[at + 2]) === 'RETURN') {
      const options = args[at + 3];
      if (options?.type !== 'list') throw new CommandError('BAD', 'RETURN needs a list');
      options.items.forEach((item, index) => {
        if (keywordOf(item) === 'SUBSCRIBED') subscribed = true;
        if (keywordOf(item) === 'STATUS') {
          const items = options.items[index + 1];
          if (items?.type !== 'list') throw new CommandError('BAD', 'STATUS needs a list');
          statusItems = items.items.map((value) => keywordOf(value) ?? '');
        }
      });
    }
    if (patterns.length === 1 && patterns[0] === '') {
      // RFC 3501 section 6.3.8: the hierarchy delimiter
      this.write(untaggedData([{ atom: kind }, [{ atom: '\\Noselect' }], '/', '']));
      return;
    }
    const tests = patterns.map((pattern) => listPattern(reference, pattern));
    const folders = statusItems ? await this.deps.folders.list(this.requireAuth()) : null;
    for (const folder of IMAP_FOLDERS) {
      if (!tests.some((test) => test(folder.wire))) continue;
      if (onlySpecialUse && folder.specialUse === null) continue;
      const attributes = [
        { atom: '\\HasNoChildren' },
        ...(subscribed ? [{ atom: '\\Subscribed' }] : []),
        ...(folder.specialUse ? [{ atom: folder.specialUse }] : []),
      ];
      this.write(untaggedData([{ atom: kind }, attributes, '/', encodeMailboxName(folder.wire)]));
      const row = folders?.find((entry) => entry.name === folder.name);
      if (row && statusItems) this.write(this.statusLine(folder.wire, row, statusItems));
    }
  }

  private statusLine(
    wire: string,
    row: MailFolderRow & { messages: number; unseen: number; size: number; deleted: number },
    items: string[],
  ): Buffer {
    const values: ImapData[] = [];
    for (const item of items) {
      const value: Record<string, number> = {
        MESSAGES: row.messages,
        UIDNEXT: row.uidnext,
        UIDVALIDITY: row.uidvalidity,
        UNSEEN: row.unseen,
        HIGHESTMODSEQ: row.highest_modseq,
        // RFC 9051 section 6.3.11 (and RFC 8438 STATUS=SIZE)
        SIZE: row.size,
        DELETED: row.deleted,
      };
      // RFC 9051 appendix E: \Recent and STATUS RECENT are gone from rev2
      if (!this.rev2) value.RECENT = 0;
      if (!(item in value)) throw new CommandError('BAD', `unknown STATUS item ${item.slice(0, 30)}`);
      values.push({ atom: item }, value[item] as number);
    }
    return untaggedData([{ atom: 'STATUS' }, encodeMailboxName(wire), values]);
  }

  private async status(args: ImapValue[]): Promise<void> {
    const folder = this.folderArg(args[0]);
    const items = args[1];
    if (items?.type !== 'list' || items.items.length === 0)
      throw new CommandError('BAD', 'STATUS needs items');
    const names = items.items.map((item) => keywordOf(item) ?? '');
    const row = (await this.deps.folders.list(this.requireAuth())).find((entry) => entry.name === folder);
    if (!row) throw new CommandError('NO', 'no such folder', { name: 'NONEXISTENT' });
    this.write(this.statusLine(wireNameOf(folder), row, names));
  }

  private async select(tag: string, args: ImapValue[], readOnly: boolean): Promise<undefined> {
    const mailboxId = this.requireAuth();
    // RFC 9051 section 7.1 (CLOSED, from RFC 7162): the previous folder is closed before the new one
    if (this.selected !== null && this.rev2)
      this.write(untaggedStatus('OK', 'previous folder closed', { name: 'CLOSED' }));
    this.selected = null;
    const folder = this.folderArg(args[0]);
    if (args[1]?.type === 'list' && args[1].items.some((item) => keywordOf(item) === 'CONDSTORE'))
      this.condstore = true;
    await this.deps.folders.list(mailboxId);
    const state = await this.deps.folders.state(mailboxId, folder);
    if (!state) throw new CommandError('NO', 'no such folder', { name: 'NONEXISTENT' });
    const messages = await this.deps.folders.messages(mailboxId, folder);
    this.selected = {
      id: state.id,
      name: folder,
      readOnly,
      uidvalidity: state.uidvalidity,
      highestModseq: state.highest_modseq,
      uidnext: state.uidnext,
      messages,
    };
    this.write(untaggedData([{ atom: 'FLAGS' }, SYSTEM_FLAGS.map((atom) => ({ atom }))]));
    this.write(
      untaggedStatus('OK', 'flags permitted', {
        name: 'PERMANENTFLAGS',
        flags: readOnly ? [] : [...SYSTEM_FLAGS, '\\*'],
      }),
    );
    this.write(untaggedData([messages.length, { atom: 'EXISTS' }]));
    if (this.rev2) {
      // RFC 9051 section 6.3.2: a LIST response is required, RECENT and [UNSEEN] are gone
      const entry = IMAP_FOLDERS.find((candidate) => candidate.name === folder);
      this.write(
        untaggedData([
          { atom: 'LIST' },
          [{ atom: '\\HasNoChildren' }, ...(entry?.specialUse ? [{ atom: entry.specialUse }] : [])],
          '/',
          encodeMailboxName(wireNameOf(folder)),
        ]),
      );
    } else {
      this.write(untaggedData([0, { atom: 'RECENT' }]));
      const firstUnseen = messages.findIndex((message) => !message.read);
      if (firstUnseen !== -1)
        this.write(untaggedStatus('OK', 'first unseen', { name: 'UNSEEN', value: firstUnseen + 1 }));
    }
    this.write(untaggedStatus('OK', 'UIDs valid', { name: 'UIDVALIDITY', value: state.uidvalidity }));
    this.write(untaggedStatus('OK', 'predicted next UID', { name: 'UIDNEXT', value: state.uidnext }));
    this.write(untaggedStatus('OK', 'highest', { name: 'HIGHESTMODSEQ', value: state.highest_modseq }));
    this.ok(tag, `${readOnly ? 'EXAMINE' : 'SELECT'} completed`, {
      name: readOnly ? 'READ-ONLY' : 'READ-WRITE',
    });
    return undefined;
  }

  private async append(tag: string, args: ImapValue[]): Promise<undefined> {
    const mailboxId = this.requireAuth();
    const name = decodeMailboxName(astringOf(args[0], 'folder name'));
    const folder = folderByWireName(name);
    if (folder === null) throw new CommandError('NO', 'no such folder', { name: 'TRYCREATE' });
    let at = 1;
    let flags: string[] = [];
    const flagList = args[at];
    if (flagList?.type === 'list') {
      flags = flagList.items.map(flagOf);
      at++;
    }
    let receivedAt = Date.now();
    const date = args[at];
    if (date?.type === 'quoted') {
      receivedAt = parseInternalDate(date.value).getTime();
      at++;
    }
    const message = args[at];
    if (message?.type !== 'literal' || args.length > at + 1) {
      throw new CommandError('BAD', 'APPEND takes one message (MULTIAPPEND is not supported)');
    }
    const state = applyFlags({ read: 0, starred: 0, flags: 0, keywords: '' }, 'replace', flags);
    const stored = await this.deps.folders.append(mailboxId, folder, message.value, {
      read: state.read === 1,
      starred: state.starred === 1,
      flags: state.flags,
      keywords: state.keywords,
      receivedAt,
    });
    if (this.selected?.name === folder) await this.sync(true);
    this.ok(tag, 'APPEND completed', {
      name: 'APPENDUID',
      uidValidity: stored.uidvalidity,
      uids: [stored.uid],
    });
    return undefined;
  }

  /** IDLE (RFC 2177): changes pushed until DONE; the folder row is polled, and checked on new mail. */
  private async idle(tag: string): Promise<'close' | undefined> {
    this.write(continuationRequest('idling'));
    this.reader.expectLine();
    let stopped = false;
    const selected = this.selected;
    // The folder row is polled with every other idle session's (folder service), and looked at
    // once on new mail stored in this process.
    const stopWatching = selected
      ? this.deps.folders.watch(
          { id: selected.id, highest_modseq: selected.highestModseq, uidnext: selected.uidnext },
          () => {
            if (!stopped) {
              void this.sync(true).catch((error: Error) =>
                this.deps.log.warn(`imap: idle update failed: ${error.message}`),
              );
            }
          },
        )
      : () => {};
    // What changed since the last command (and before the watch began) is told at once.
    if (selected) void this.sync(true).catch(() => {});
    const loginCheck = setInterval(() => void this.loginStands().catch(() => {}), this.limits.loginCheckMs);
    loginCheck.unref();
    try {
      const event = await this.nextEvent();
      if (event === null) return 'close';
      if (event.type !== 'line' || event.line.toString('latin1').trim().toUpperCase() !== 'DONE') {
        throw new CommandError('BAD', 'expected DONE');
      }
    } finally {
      stopped = true;
      stopWatching();
      clearInterval(loginCheck);
    }
    await this.syncing;
    this.ok(tag, 'IDLE terminated');
    return undefined;
  }

  // ---- selected ----

  private writable(selected: SelectedFolder): void {
    if (selected.readOnly)
      throw new CommandError('NO', 'the folder is read-only (EXAMINE)', { name: 'READ-ONLY' });
  }

  /**
   * Brings the selected folder up to date and tells the client: EXPUNGE (when allowed: not during
   * FETCH, STORE and SEARCH, RFC 3501 section 7.4.1), FETCH FLAGS for changed flags, EXISTS for new
   * mail. One at a time: IDLE's poll and a command never interleave their responses.
   */
  private sync(allowExpunge: boolean): Promise<void> {
    const run = this.syncing.then(() => this.syncNow(allowExpunge));
    this.syncing = run.catch(() => {});
    return run;
  }

  private async syncNow(allowExpunge: boolean): Promise<void> {
    const selected = this.selected;
    const mailboxId = this.mailboxId;
    if (!selected || mailboxId === null || this.client.closed) return;
    const state = await this.deps.folders.state(mailboxId, selected.name);
    if (!state) {
      this.write(untaggedStatus('BYE', 'the mailbox no longer exists'));
      this.close();
      return;
    }
    if (state.highest_modseq === selected.highestModseq && state.uidnext === selected.uidnext) return;
    const rows = await this.deps.folders.messages(mailboxId, selected.name);
    if (this.selected !== selected) return;
    const byUid = new Map(rows.map((row) => [row.uid, row]));
    let complete = true;
    if (allowExpunge) {
      for (let index = selected.messages.length - 1; index >= 0; index--) {
        const message = selected.messages[index] as FolderMessageRow;
        if (!byUid.has(message.uid)) {
          selected.messages.splice(index, 1);
          this.write(untaggedData([index + 1, { atom: 'EXPUNGE' }]));
        }
      }
    }
    selected.messages.forEach((message, index) => {
      const row = byUid.get(message.uid);
      if (!row) {
        complete = false;
        return;
      }
      if (!sameFlags(message, row)) this.write(this.flagsResponse(index + 1, row, true));
      selected.messages[index] = row;
    });
    const lastUid = selected.messages[selected.messages.length - 1]?.uid ?? 0;
    const added = rows.filter((row) => row.uid > lastUid);
    if (added.length > 0) {
      selected.messages.push(...added);
      this.write(untaggedData([selected.messages.length, { atom: 'EXISTS' }]));
    }
    // Held-back expunges keep the modseq unseen, so the next sync that may expunge looks again.
    if (complete) {
      selected.highestModseq = state.highest_modseq;
      selected.uidnext = state.uidnext;
    }
  }

  private flagsResponse(sequence: number, message: FolderMessageRow, withUid: boolean): Buffer {
    const items: ImapData[] = [];
    if (withUid) items.push({ atom: 'UID' }, message.uid);
    items.push(
      { atom: 'FLAGS' },
      flagsOf(message).map((atom) => ({ atom })),
    );
    if (this.condstore) items.push({ atom: 'MODSEQ' }, [message.modseq]);
    return untaggedData([sequence, { atom: 'FETCH' }, items]);
  }

  private sequenceArg(value: ImapValue | undefined): SequenceSet {
    if (value?.type !== 'atom') throw new CommandError('BAD', 'expected a sequence set');
    return parseSequenceSetOrBad(value.value);
  }

  /** Indexes of the selected messages a set names (by UID or by sequence number). */
  private resolve(selected: SelectedFolder, set: SequenceSet, byUid: boolean): number[] {
    if (set === '$') return [];
    const { messages } = selected;
    // An empty folder has no numbers to name: `1:*` there finds nothing (clients send it blindly).
    if (messages.length === 0) return [];
    if (byUid) {
      const has = sequenceSetMatcher(set, messages[messages.length - 1]?.uid ?? 0);
      const indexes: number[] = [];
      messages.forEach((message, index) => {
        if (has(message.uid)) indexes.push(index);
      });
      return indexes;
    }
    const ranges = resolveSequenceSet(set, messages.length);
    if (ranges.some(([, to]) => to > messages.length)) {
      throw new CommandError('BAD', 'no such message sequence number');
    }
    const indexes: number[] = [];
    for (const [from, to] of ranges) for (let number = from; number <= to; number++) indexes.push(number - 1);
    return indexes;
  }

  private async expungeDeleted(
    selected: SelectedFolder,
    uidSet: SequenceSet | null,
    report: boolean,
  ): Promise<void> {
    const mailboxId = this.requireAuth();
    const indexes =
      uidSet === null ? selected.messages.map((_, index) => index) : this.resolve(selected, uidSet, true);
    const ids = indexes
      .map((index) => selected.messages[index] as FolderMessageRow)
      .filter((message) => (message.flags & 2) !== 0)
      .map((message) => message.id);
    for (let start = 0; start < ids.length; start += this.limits.batch) {
      await this.deps.folders.expunge(mailboxId, ids.slice(start, start + this.limits.batch));
    }
    if (report) await this.sync(true);
  }

  private async search(tag: string, args: ImapValue[], byUid: boolean): Promise<void> {
    const selected = this.requireSelected();
    const mailboxId = this.requireAuth();
    const parsed = parseSearchArguments(args);
    const messages = [...selected.messages];
    const found = await searchMessages(parsed.key, {
      messages,
      now: Date.now(),
      text: (ids) => this.searchText(mailboxId, ids),
      header: async (message) => {
        const head = await this.deps.folders.rawHead(message.raw_id, 64 * 1024);
        const tree = parseMimeTree(head);
        return head.subarray(0, tree.bodyStart).toString('latin1');
      },
    });
    const numbers = found.map((index) => (byUid ? (messages[index] as FolderMessageRow).uid : index + 1));
    if (parsed.returnOptions !== null || this.rev2) {
      // RFC 4731 ESEARCH; RFC 9051 section 7.3.4: a rev2 session gets no `* SEARCH` at all
      const options =
        parsed.returnOptions === null || parsed.returnOptions.length === 0 ? ['ALL'] : parsed.returnOptions;
      const data: ImapData[] = [{ atom: 'ESEARCH' }, [{ atom: 'TAG' }, tag]];
      if (byUid) data.push({ atom: 'UID' });
      // `numbers` is in folder order, so ascending; Math.min(...numbers) would overflow the call
      // stack past some 100,000 results.
      if (numbers.length > 0 && options.includes('MIN')) data.push({ atom: 'MIN' }, numbers[0] as number);
      if (numbers.length > 0 && options.includes('MAX'))
        data.push({ atom: 'MAX' }, numbers[numbers.length - 1] as number);
      if (options.includes('COUNT')) data.push({ atom: 'COUNT' }, numbers.length);
      if (numbers.length > 0 && options.includes('ALL'))
        data.push({ atom: 'ALL' }, { atom: formatSequenceSet(numbers) });
      this.write(untaggedData(data));
    } else {
      this.write(untaggedData([{ atom: 'SEARCH' }, ...numbers]));
    }
    await this.sync(byUid);
    this.ok(tag, `${byUid ? 'UID ' : ''}SEARCH completed`);
  }

  private async searchText(mailboxId: number, ids: number[]): Promise<Map<number, SearchText>> {
    const texts = new Map<number, SearchText>();
    const people = (json: string) => {
      try {
        return (JSON.parse(json) as { name: string; address: string }[])
          .map((p) => `${p.name} <${p.address}>`)
          .join(', ');
      } catch {
        return '';
      }
    };
    for (let start = 0; start < ids.length; start += this.limits.batch) {
      for (const row of await this.deps.folders.searchFields(
        mailboxId,
        ids.slice(start, start + this.limits.batch),
      )) {
        texts.set(row.id, {
          subject: row.subject,
          from: `${row.from_name} <${row.from_address}>`,
          to: people(row.to_json),
          cc: people(row.cc_json),
          body: row.text_body ?? '',
          sentAt: row.sent_at,
        });
      }
    }
    return texts;
  }

  private async fetch(args: ImapValue[], byUid: boolean): Promise<void> {
    const selected = this.requireSelected();
    const parsed = parseFetchArguments(args);
    const attributes = [...parsed.attributes];
    if (byUid && !attributes.some((attribute) => attribute.name === 'UID'))
      attributes.unshift({ name: 'UID' });
    if (parsed.changedSince !== null) {
      this.condstore = true;
      if (!attributes.some((attribute) => attribute.name === 'MODSEQ')) attributes.push({ name: 'MODSEQ' });
    }
    for (const index of this.resolve(selected, parsed.sequence, byUid)) {
      const message = selected.messages[index];
      if (!message) continue;
      if (parsed.changedSince !== null && message.modseq <= parsed.changedSince) continue;
      await this.fetchOne(selected, index, message, attributes);
    }
  }

  private async fetchOne(
    selected: SelectedFolder,
    index: number,
    message: FolderMessageRow,
    attributes: FetchAttribute[],
  ): Promise<void> {
    const marksSeen = attributes.some(
      (a) =>
        ((a.name === 'BODY[]' || a.name === 'BINARY[]') && !a.peek) ||
        a.name === 'RFC822' ||
        a.name === 'RFC822.TEXT',
    );
    let current = message;
    if (marksSeen && !selected.readOnly && !message.read) {
      await this.deps.folders.setFlags(this.requireAuth(), [message.id], { read: 1 });
      current = { ...message, read: 1 };
      selected.messages[index] = current;
    }
    const wholeOnly = (a: FetchAttribute) =>
      (a.name === 'BODY[]' && a.section.part.length === 0 && a.section.text === null && a.partial === null) ||
      a.name === 'RFC822';
    const needsRaw = attributes.some(
      (a) =>
        [
          'ENVELOPE',
          'BODYSTRUCTURE',
          'BODY',
          'RFC822.HEADER',
          'RFC822.TEXT',
          'BODY[]',
          'RFC822',
          'BINARY[]',
          'BINARY.SIZE',
        ].includes(a.name) && !(wholeOnly(a) && current.size > this.limits.inMemoryBodyBytes),
    );
    const raw = needsRaw ? await readAll(this.deps.folders.raw(current.raw_id)) : null;
    const tree = raw ? parseMimeTree(raw) : null;
    // RFC 3516 section 4.3: an encoding the server cannot undo fails the command with
    // [UNKNOWN-CTE], before anything of this message is written. Only the encodings are read here;
    // each part is decoded when its item is written.
    // Decoded parts are kept for this message only: a FETCH naming `BINARY.SIZE[1]` thousands of
    // times decodes part 1 once (decoded bytes never outnumber the message's own).
    const decoded = new Map<string, ReturnType<typeof binaryContent>>();
    const binaryOf = (part: number[]) => {
      const key = part.join('.');
      if (!decoded.has(key)) decoded.set(key, raw && tree ? binaryContent(raw, tree, part) : null);
      return decoded.get(key) ?? null;
    };
    const checked = new Set<string>();
    for (const attribute of attributes) {
      if ((attribute.name !== 'BINARY[]' && attribute.name !== 'BINARY.SIZE') || !raw || !tree) continue;
      if (checked.has(attribute.part.join('.'))) continue;
      checked.add(attribute.part.join('.'));
      const content = binaryContent(raw, tree, attribute.part, false);
      if (content !== null && 'unknownEncoding' in content) {
        throw new CommandError('NO', `cannot decode ${content.unknownEncoding.slice(0, 40)}`, {
          name: 'UNKNOWN-CTE',
        });
      }
    }

    // Each item is written (and drained) as soon as it is made: a FETCH naming the same large
    // section thousands of times (`BODY.PEEK[] BODY.PEEK[] …` fits 64 KiB thousands of times) must
    // not hold all its copies in memory at once.
    let items: (Buffer | { stream: true })[][] = [];
    let written = 0;
    const flush = async () => {
      for (const item of items) {
        await this.client.writeAndDrain(Buffer.from(written === 0 ? `* ${index + 1} FETCH (` : ' '));
        written++;
        for (const piece of item) {
          if (Buffer.isBuffer(piece)) await this.client.writeAndDrain(piece);
          else await this.streamBody(current);
        }
      }
      items = [];
    };
    let flagsSent = false;
    for (const attribute of attributes) {
      const name = Buffer.from(`${fetchResponseName(attribute)} `, 'latin1');
      switch (attribute.name) {
        case 'UID':
          items.push([name, formatData(current.uid)]);
          break;
        case 'FLAGS':
          flagsSent = true;
          items.push([name, formatData(flagsOf(current).map((atom) => ({ atom })))]);
          break;
        case 'MODSEQ':
          items.push([name, formatData([current.modseq])]);
          break;
        case 'INTERNALDATE':
          items.push([name, formatData(formatInternalDate(new Date(current.received_at)))]);
          break;
        case 'RFC822.SIZE':
          items.push([name, formatData(current.size)]);
          break;
        case 'ENVELOPE':
          items.push([name, formatData(raw && tree ? envelopeData(envelopeOf(raw, tree)) : null)]);
          break;
        case 'BODYSTRUCTURE':
        case 'BODY':
          items.push([
            name,
            formatData(
              raw && tree
                ? bodyStructureData(bodyPartOf(raw, tree), attribute.name === 'BODYSTRUCTURE')
                : null,
            ),
          ]);
          break;
        case 'RFC822.HEADER':
        case 'RFC822.TEXT': {
          const section: Section = {
            part: [],
            text: attribute.name === 'RFC822.HEADER' ? 'HEADER' : 'TEXT',
            fields: [],
          };
          const bytes = raw && tree ? (sectionBytes(raw, tree, section) ?? Buffer.alloc(0)) : Buffer.alloc(0);
          items.push([name, formatData({ literal: bytes })]);
          break;
        }
        case 'BINARY[]':
        case 'BINARY.SIZE': {
          const content = binaryOf(attribute.part);
          // A part that does not exist: RFC 3516 leaves it open; an empty string, as BODY[] has.
          let bytes = content !== null && 'bytes' in content ? content.bytes : Buffer.alloc(0);
          if (attribute.name === 'BINARY.SIZE') {
            items.push([name, formatData(bytes.length)]);
            break;
          }
          if (attribute.partial !== null) {
            const { offset, length } = attribute.partial;
            bytes = bytes.subarray(Math.min(offset, bytes.length), Math.min(bytes.length, offset + length));
          }
          // RFC 3516 section 4.2: literal8 when the content holds NUL (not a valid `literal`)
          items.push([name, formatData({ literal: bytes, binary: bytes.includes(0) })]);
          break;
        }
        case 'RFC822':
        case 'BODY[]': {
          if (raw === null) {
            items.push([name, Buffer.from(`{${current.size}}\r\n`), { stream: true }]);
            break;
          }
          let bytes =
            attribute.name === 'BODY[]'
              ? ((tree ? sectionBytes(raw, tree, attribute.section) : null) ?? Buffer.alloc(0))
              : raw;
          if (attribute.name === 'BODY[]' && attribute.partial !== null) {
            const { offset, length } = attribute.partial;
            bytes = bytes.subarray(Math.min(offset, bytes.length), Math.min(bytes.length, offset + length));
          }
          items.push([name, formatData({ literal: bytes })]);
          break;
        }
      }
      await flush();
    }
    if (marksSeen && current !== message && !flagsSent) {
      items.push([Buffer.from('FLAGS '), formatData(flagsOf(current).map((atom) => ({ atom })))]);
    }
    await flush();
    await this.client.writeAndDrain(Buffer.from(written === 0 ? `* ${index + 1} FETCH ()\r\n` : ')\r\n'));
  }

  /** A large message's bytes, streamed; exactly `size` of them whatever the store holds now. */
  private async streamBody(message: FolderMessageRow): Promise<void> {
    let sent = 0;
    for await (const chunk of this.deps.folders.raw(message.raw_id) as AsyncIterable<Buffer>) {
      const part = chunk.subarray(0, Math.max(0, message.size - sent));
      if (part.length > 0) await this.client.writeAndDrain(part);
      sent += part.length;
      if (sent >= message.size) break;
    }
    // Expunged meanwhile: the literal's announced length is still owed.
    if (sent < message.size) await this.client.writeAndDrain(Buffer.alloc(message.size - sent, 0x20));
  }

  private async store(tag: string, args: ImapValue[], byUid: boolean): Promise<void> {
    const selected = this.requireSelected();
    this.writable(selected);
    const mailboxId = this.requireAuth();
    const parsed = parseStoreArguments(args);
    const indexes = this.resolve(selected, parsed.sequence, byUid);
    const groups = new Map<string, { state: FlagState; ids: number[] }>();
    const modified: number[] = [];
    // A Set: STORE over `1:*` of a big folder asks "changed?" once per message.
    const changed = new Set<number>();
    for (const index of indexes) {
      const message = selected.messages[index] as FolderMessageRow;
      if (parsed.unchangedSince !== null && message.modseq > parsed.unchangedSince) {
        modified.push(byUid ? message.uid : index + 1);
        continue;
      }
      const next = applyFlags(message, parsed.operation, parsed.flags);
      const changes = flagChanges(message, next);
      if (changes === null) continue;
      const key = JSON.stringify(changes);
      const group = groups.get(key) ?? { state: next, ids: [] };
      group.ids.push(message.id);
      groups.set(key, group);
      selected.messages[index] = { ...message, ...next };
      changed.add(index);
    }
    for (const [key, group] of groups) {
      const changes = JSON.parse(key) as ReturnType<typeof flagChanges>;
      if (changes === null) continue;
      for (let start = 0; start < group.ids.length; start += this.limits.batch) {
        await this.deps.folders.setFlags(
          mailboxId,
          group.ids.slice(start, start + this.limits.batch),
          changes,
        );
      }
    }
    await this.sync(byUid);
    if (!parsed.silent || this.condstore) {
      for (const index of indexes) {
        const message = selected.messages[index];
        if (!message || (parsed.silent && !changed.has(index))) continue;
        this.write(this.flagsResponse(index + 1, message, byUid));
      }
    }
    const code: ResponseCode | undefined =
      modified.length > 0 ? { name: 'MODIFIED', numbers: modified } : undefined;
    this.ok(tag, `${byUid ? 'UID ' : ''}STORE completed`, code);
  }

  private async copyOrMove(tag: string, args: ImapValue[], byUid: boolean, move: boolean): Promise<void> {
    const selected = this.requireSelected();
    const mailboxId = this.requireAuth();
    if (move) this.writable(selected);
    const set = this.sequenceArg(args[0]);
    const name = decodeMailboxName(astringOf(args[1], 'folder name'));
    const target = folderByWireName(name);
    if (target === null) throw new CommandError('NO', 'no such folder', { name: 'TRYCREATE' });
    const messages = this.resolve(selected, set, byUid).map(
      (index) => selected.messages[index] as FolderMessageRow,
    );
    const ids = messages.map((message) => message.id);
    const verb = `${byUid ? 'UID ' : ''}${move ? 'MOVE' : 'COPY'}`;
    if (ids.length === 0) {
      this.ok(tag, `${verb} completed`);
      return;
    }
    const pairs: { fromUid: number; toUid: number }[] = [];
    for (let start = 0; start < ids.length; start += this.limits.batch) {
      const slice = ids.slice(start, start + this.limits.batch);
      if (move && target === selected.name) continue;
      pairs.push(
        ...(move
          ? await this.deps.folders.move(mailboxId, slice, target)
          : await this.deps.folders.copy(mailboxId, slice, target)),
      );
    }
    const state = await this.deps.folders.state(mailboxId, target);
    const code: ResponseCode | undefined =
      state && pairs.length > 0
        ? {
            name: 'COPYUID',
            uidValidity: state.uidvalidity,
            sourceUids: pairs.map((pair) => pair.fromUid),
            destinationUids: pairs.map((pair) => pair.toUid),
          }
        : undefined;
    if (move) {
      // RFC 6851 section 4.3: COPYUID in an untagged OK before the EXPUNGEs
      if (code) this.write(untaggedStatus('OK', 'moved', code));
      await this.sync(true);
      this.ok(tag, `${verb} completed`);
    } else {
      await this.sync(byUid);
      this.ok(tag, `${verb} completed`, code);
    }
  }
}

function parseSequenceSetOrBad(text: string): SequenceSet {
  try {
    return parseSequenceSetStrict(text);
  } catch (error) {
    if (error instanceof ImapSyntaxError) throw new CommandError('BAD', error.message);
    throw error;
  }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}
