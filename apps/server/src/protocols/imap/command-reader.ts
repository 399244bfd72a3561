/**
 * Reads IMAP commands from a client's byte stream (RFC 3501 sections 2.2 and 9, RFC 9051 sections
 * 2.2 and 9), however the socket splits it: `tag SP command [SP arguments] CRLF`, with
 * synchronising literals that need a continuation request first (RFC 3501 section 7.5),
 * non-synchronising ones (LITERAL+ and LITERAL-, RFC 7888 section 4) and literal8 (RFC 3516).
 *
 * Every byte sequence gives commands or BAD results, in the same order whatever the chunking:
 * lines, literals, nesting and tokens are bounded, and what exceeds a bound is skipped without
 * being buffered. When the stream cannot be followed any more (a non-synchronising literal too big
 * to skip) the result says the connection must be closed.
 */
import { ArgumentTokenizer, isAtomByte, type LiteralHeader } from './command-tokenizer.js';
import { ImapSyntaxError, type ImapValue } from './imap-value.js';

const LF = 0x0a;
const CR = 0x0d;
const SP = 0x20;
/** RFC 7888 section 4: under LITERAL- a non-synchronising literal holds at most 4096 octets */
const LITERAL_MINUS_MAX = 4096;
/** enough of a line's end to find `~{digits+}` in it */
const TAIL_BYTES = 40;

export interface ImapCommand {
  tag: string;
  /** upper-cased; `UID FETCH`, `UID STORE`... for the UID forms (RFC 3501 section 6.4.8) */
  command: string;
  args: ImapValue[];
}

export type ImapReaderEvent =
  | { type: 'command'; command: ImapCommand }
  /** send `+ ` now: the client waits for it before sending a synchronising literal */
  | { type: 'continue' }
  /** the line asked for with `expectLine` (AUTHENTICATE responses, IDLE's DONE) */
  | { type: 'line'; line: Buffer }
  /**
   * answer `tag BAD text` (or `* BAD` without a tag); with `close`, send BYE and close: what
   * follows can no longer be told apart from commands
   */
  | { type: 'bad'; tag: string | null; text: string; code: string | null; close: boolean };

export interface ImapReaderOptions {
  /** octets of one command outside its literals, CRLF excluded */
  maxLineBytes: number;
  /** octets of one literal (an APPEND size limit) */
  maxLiteralBytes: number;
  /** octets of all literals of one command (MULTIAPPEND); defaults to maxLiteralBytes */
  maxCommandLiteralBytes: number;
  maxDepth: number;
  maxTokens: number;
  /**
   * octets of a refused non-synchronising literal that are read and dropped (never buffered) so
   * that the connection goes on after the BAD; a larger one closes it (RFC 7888 section 4 allows
   * either). Defaults to maxLiteralBytes.
   */
  maxSkipBytes: number;
  /** what CAPABILITY announced: `{n+}` is refused without LITERAL+ or LITERAL- (RFC 7888) */
  literalPlus: 'LITERAL+' | 'LITERAL-' | 'none';
}

export const defaultReaderOptions: ImapReaderOptions = {
  maxLineBytes: 64 * 1024,
  maxLiteralBytes: 50 * 1024 * 1024,
  maxCommandLiteralBytes: 50 * 1024 * 1024,
  maxSkipBytes: 50 * 1024 * 1024,
  maxDepth: 16,
  maxTokens: 10_000,
  literalPlus: 'LITERAL+',
};

interface Command {
  tag: string;
  command: string;
  tokenizer: ArgumentTokenizer;
  lineBytes: number;
  literalBytes: number;
}

type Mode =
  | { name: 'line' }
  | { name: 'literal'; remaining: number; chunks: Buffer[] }
  /** discarding the rest of a refused command's line; `tail` is what was seen of its end */
  | { name: 'skip-line'; tail: Buffer }
  /** discarding a refused command's non-synchronising literal */
  | { name: 'skip-bytes'; remaining: number }
  | { name: 'closed' };

export class ImapCommandReader {
  private readonly options: ImapReaderOptions;
  private readonly queue = new ByteQueue();
  private mode: Mode = { name: 'line' };
  private current: Command | null = null;
  private rawLine = false;
  private readonly pending: ImapReaderEvent[] = [];

  constructor(options: Partial<ImapReaderOptions> = {}) {
    const merged = { ...defaultReaderOptions, ...options };
    this.options = {
      ...merged,
      maxCommandLiteralBytes: options.maxCommandLiteralBytes ?? merged.maxLiteralBytes,
      maxSkipBytes: Math.max(options.maxSkipBytes ?? 0, merged.maxLiteralBytes),
    };
  }

  /** Bytes from the socket. Call `next` until it returns null before pushing more. */
  push(chunk: Buffer): void {
    if (this.mode.name !== 'closed' && chunk.length > 0) this.queue.push(chunk);
  }

  /**
   * Changes the literal limits for the commands that follow (a server allows APPEND-sized literals
   * only once the client has logged in).
   */
  setLiteralLimit(maxLiteralBytes: number): void {
    this.options.maxLiteralBytes = maxLiteralBytes;
    this.options.maxCommandLiteralBytes = maxLiteralBytes;
    this.options.maxSkipBytes = Math.max(this.options.maxSkipBytes, maxLiteralBytes);
  }

  /** The next line is taken whole as a `line` event (RFC 3501 sections 6.2.2, RFC 2177). */
  expectLine(): void {
    this.rawLine = true;
  }

  /** Octets held: at most a line, a literal and a socket chunk. */
  get buffered(): number {
    return (
      this.queue.length +
      (this.mode.name === 'literal' ? this.mode.chunks.reduce((n, c) => n + c.length, 0) : 0)
    );
  }

  /** Everything `chunk` completes, for callers that need no `expectLine`. */
  read(chunk: Buffer): ImapReaderEvent[] {
    this.push(chunk);
    const events: ImapReaderEvent[] = [];
    for (let event = this.next(); event !== null; event = this.next()) events.push(event);
    return events;
  }

  next(): ImapReaderEvent | null {
    for (;;) {
      const queued = this.pending.shift();
      if (queued !== undefined) return queued;
      const mode = this.mode;
      if (mode.name === 'closed') {
        this.queue.clear();
        return null;
      }
      if (mode.name === 'literal') {
        if (mode.remaining > 0) {
          const piece = this.queue.take(Math.min(mode.remaining, this.queue.length));
          if (piece.length === 0) return null;
          mode.chunks.push(piece);
          mode.remaining -= piece.length;
        }
        if (mode.remaining === 0) {
          this.current?.tokenizer.addLiteral(Buffer.concat(mode.chunks));
          this.mode = { name: 'line' };
        }
      } else if (mode.name === 'skip-bytes') {
        const skipped = Math.min(mode.remaining, this.queue.length);
        if (skipped === 0) return null;
        this.queue.take(skipped);
        mode.remaining -= skipped;
        if (mode.remaining === 0) this.mode = { name: 'skip-line', tail: Buffer.alloc(0) };
      } else if (mode.name === 'skip-line') {
        const end = this.queue.indexOfLf();
        const upTo = end < 0 ? this.queue.length : end;
        if (upTo === 0 && end < 0) return null;
        mode.tail = keepTail(Buffer.concat([mode.tail, this.queue.take(upTo)]));
        if (end < 0) return null;
        this.queue.take(1);
        this.skippedLineEnded(mode.tail);
      } else {
        const event = this.readLine();
        if (event === 'wait') return null;
        if (event !== null) return event;
      }
    }
  }

  /** Line mode: a command's first line, a line after a literal, or a line for `expectLine`. */
  private readLine(): ImapReaderEvent | null | 'wait' {
    const budget = this.options.maxLineBytes - (this.current?.lineBytes ?? 0);
    const end = this.queue.indexOfLf();
    if (end < 0) {
      // past the budget even if the next byte is CR LF: refuse now rather than keep buffering
      if (this.queue.length <= budget + 1) return 'wait';
      const seen = this.queue.take(this.queue.length);
      this.mode = { name: 'skip-line', tail: keepTail(seen) };
      return this.refuse(seen, budget, new ImapSyntaxError('line too long', 'TOOBIG'), false);
    }
    const raw = this.queue.take(end);
    this.queue.take(1);
    const line = raw[raw.length - 1] === CR ? raw.subarray(0, -1) : raw;
    if (line.length > budget) {
      return this.refuse(raw, budget, new ImapSyntaxError('line too long', 'TOOBIG'), true);
    }
    if (this.rawLine && this.current === null) {
      this.rawLine = false;
      return { type: 'line', line: Buffer.from(line) };
    }
    try {
      return this.continueCommand(line);
    } catch (error) {
      if (!(error instanceof ImapSyntaxError)) throw error;
      return this.refuse(raw, budget, error, true);
    }
  }

  private continueCommand(line: Buffer): ImapReaderEvent | null {
    let command = this.current;
    let from = 0;
    if (command === null) {
      if (line.length === 0) return null;
      const start = commandStart(line);
      command = {
        tag: start.tag,
        command: start.command,
        tokenizer: new ArgumentTokenizer(this.options),
        lineBytes: 0,
        literalBytes: 0,
      };
      this.current = command;
      from = start.argumentsFrom;
    }
    command.lineBytes += line.length;
    const literal = command.tokenizer.feed(line, from);
    if (literal === null) {
      this.current = null;
      return { type: 'command', command: finished(command) };
    }
    this.checkLiteral(command, literal);
    command.literalBytes += literal.size;
    this.mode = { name: 'literal', remaining: literal.size, chunks: [] };
    return literal.synchronising ? { type: 'continue' } : null;
  }

  private checkLiteral(command: Command, literal: LiteralHeader): void {
    if (!literal.synchronising && this.options.literalPlus === 'none') {
      throw new ImapSyntaxError('non-synchronising literals are not supported');
    }
    if (
      !literal.synchronising &&
      this.options.literalPlus === 'LITERAL-' &&
      literal.size > LITERAL_MINUS_MAX
    ) {
      throw new ImapSyntaxError('non-synchronising literal over 4096 octets (LITERAL-)', 'TOOBIG');
    }
    if (
      literal.size > this.options.maxLiteralBytes ||
      command.literalBytes + literal.size > this.options.maxCommandLiteralBytes
    ) {
      throw new ImapSyntaxError('literal too large', 'TOOBIG');
    }
  }

  /**
   * The BAD for the command in progress (or for the line whose start is `seen`). When the whole
   * line is in, what its end says about a following literal is decided at once; otherwise when
   * the skipped line ends, with the same result.
   */
  private refuse(seen: Buffer, budget: number, error: ImapSyntaxError, lineEnded: boolean): ImapReaderEvent {
    // a line for `expectLine` (a SASL response) has no tag to answer
    const tag = this.current?.tag ?? (this.rawLine ? null : tagOf(seen.subarray(0, Math.max(0, budget))));
    this.current = null;
    this.rawLine = false;
    const bad: ImapReaderEvent = { type: 'bad', tag, text: error.message, code: error.code, close: false };
    if (lineEnded) {
      this.mode = { name: 'line' };
      this.skippedLineEnded(keepTail(seen));
    }
    return bad;
  }

  /** A refused command's line has ended; a non-synchronising literal after it is skipped. */
  private skippedLineEnded(tail: Buffer): void {
    const match = /~?\{([0-9]{1,15})\+\}\r?$/.exec(tail.toString('latin1'));
    if (match === null) {
      // a synchronising literal is not sent: the client got our BAD instead of "+"
      this.mode = { name: 'line' };
      return;
    }
    const size = Number(match[1]);
    if (size > this.options.maxSkipBytes) {
      this.mode = { name: 'closed' };
      this.pending.push({
        type: 'bad',
        tag: null,
        text: 'literal too large to skip',
        code: 'TOOBIG',
        close: true,
      });
      return;
    }
    this.mode =
      size === 0 ? { name: 'skip-line', tail: Buffer.alloc(0) } : { name: 'skip-bytes', remaining: size };
  }
}

function keepTail(bytes: Buffer): Buffer {
  return bytes.length > TAIL_BYTES ? Buffer.from(bytes.subarray(bytes.length - TAIL_BYTES)) : bytes;
}

/** `tag SP command`, RFC 3501 section 9 (`tag`: ASTRING-CHAR except "+"). */
function commandStart(line: Buffer): { tag: string; command: string; argumentsFrom: number } {
  const tag = tagOf(line);
  if (tag === null) throw new ImapSyntaxError('missing or invalid tag');
  let at = tag.length + 1;
  const start = at;
  while (at < line.length && line[at] !== SP) {
    if (!isAtomByte(line[at]!) || line[at] === 0x5d) throw new ImapSyntaxError('invalid command name');
    at++;
  }
  if (at === start) throw new ImapSyntaxError('missing command');
  return { tag, command: line.toString('latin1', start, at).toUpperCase(), argumentsFrom: at + 1 };
}

function tagOf(line: Buffer): string | null {
  const end = line.indexOf(SP);
  if (end <= 0) return null;
  for (let at = 0; at < end; at++) {
    const byte = line[at]!;
    if (byte === 0x2b || byte === 0x25 || byte === 0x2a || !isAtomByte(byte)) return null;
  }
  return line.toString('latin1', 0, end);
}

/** UID forms read as one command: `UID FETCH` with the FETCH arguments (RFC 3501 section 6.4.8). */
function finished(command: Command): ImapCommand {
  const args = command.tokenizer.finish();
  const first = args[0];
  if (command.command === 'UID' && first?.type === 'atom' && first.section === undefined) {
    return { tag: command.tag, command: `UID ${first.value.toUpperCase()}`, args: args.slice(1) };
  }
  return { tag: command.tag, command: command.command, args };
}

/**
 * Chunks from the socket, read from the front without copying them into one buffer. Searching
 * resumes after the chunks already searched, so a line sent a byte at a time costs linear time.
 */
class ByteQueue {
  private chunks: Buffer[] = [];
  length = 0;
  /** leading chunks already searched for LF without finding it, and their octets */
  private searchedChunks = 0;
  private searchedBytes = 0;

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  indexOfLf(): number {
    for (let index = this.searchedChunks; index < this.chunks.length; index++) {
      const chunk = this.chunks[index]!;
      const found = chunk.indexOf(LF);
      if (found >= 0) return this.searchedBytes + found;
      this.searchedChunks = index + 1;
      this.searchedBytes += chunk.length;
    }
    return -1;
  }

  take(count: number): Buffer {
    let whole = 0;
    let wholeBytes = 0;
    while (whole < this.chunks.length && wholeBytes + this.chunks[whole]!.length <= count) {
      wholeBytes += this.chunks[whole]!.length;
      whole++;
    }
    const pieces = this.chunks.splice(0, whole);
    if (wholeBytes < count) {
      const chunk = this.chunks[0]!;
      pieces.push(chunk.subarray(0, count - wholeBytes));
      this.chunks[0] = chunk.subarray(count - wholeBytes);
    }
    this.length -= count;
    this.searchedChunks = 0;
    this.searchedBytes = 0;
    return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
  }

  clear(): void {
    this.chunks = [];
    this.length = 0;
    this.searchedChunks = 0;
    this.searchedBytes = 0;
  }
}
