/**
 * Reads POP3 commands from a client's byte stream, however the socket splits it (RFC 1939
 * section 3, RFC 2449 section 4 for the line limit, RFC 2595 section 4 STLS, RFC 5034 section 4
 * for AUTH and its client responses): `KEYWORD [SP argument]... CRLF`.
 *
 * A line longer than 255 octets with its CRLF (RFC 2449 section 4) is answered -ERR and skipped
 * without being buffered; so is a line the grammar refuses. Any byte sequence gives commands or
 * errors, in the same order whatever the chunking.
 */

const LF = 0x0a;
const CR = 0x0d;

export interface Pop3Command {
  /** the keyword upper-cased: USER, PASS, STAT, LIST, RETR, TOP, UIDL, CAPA, STLS, AUTH... */
  name: string;
  /** the arguments split at spaces */
  args: string[];
  /** everything after the keyword and its space, as sent: a password may contain spaces (RFC 1939 section 7) */
  rest: string;
}

export type Pop3ReaderEvent =
  | { type: 'command'; command: Pop3Command }
  /** the line asked for with `expectLine`: an AUTH client response, `*` to cancel (RFC 5034 section 4) */
  | { type: 'line'; line: string }
  /** answer `-ERR text` */
  | { type: 'error'; text: string };

export interface Pop3ReaderOptions {
  /** RFC 2449 section 4: 255 octets, CRLF included */
  maxLineBytes: number;
  /** AUTH responses are not bound by the 255 octets (RFC 5034 section 4) */
  maxResponseLineBytes: number;
}

export const defaultPop3ReaderOptions: Pop3ReaderOptions = {
  maxLineBytes: 255,
  maxResponseLineBytes: 16 * 1024,
};

export class Pop3CommandReader {
  private readonly options: Pop3ReaderOptions;
  private chunks: Buffer[] = [];
  private length = 0;
  private rawLine = false;
  /** discarding an over-long line until its LF */
  private skipping = false;

  constructor(options: Partial<Pop3ReaderOptions> = {}) {
    this.options = { ...defaultPop3ReaderOptions, ...options };
  }

  push(chunk: Buffer): void {
    if (chunk.length > 0) {
      this.chunks.push(chunk);
      this.length += chunk.length;
    }
  }

  /** Octets held: at most a line being read and the chunk just pushed. */
  get buffered(): number {
    return this.length;
  }

  /** The next line is an AUTH client response, taken whole. */
  expectLine(): void {
    this.rawLine = true;
  }

  read(chunk: Buffer): Pop3ReaderEvent[] {
    this.push(chunk);
    const events: Pop3ReaderEvent[] = [];
    for (let event = this.next(); event !== null; event = this.next()) events.push(event);
    return events;
  }

  next(): Pop3ReaderEvent | null {
    for (;;) {
      const buffered = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
      this.chunks = buffered.length > 0 ? [buffered] : [];
      const end = buffered.indexOf(LF);
      const limit = this.rawLine ? this.options.maxResponseLineBytes : this.options.maxLineBytes;
      if (this.skipping) {
        this.consume(buffered, end < 0 ? buffered.length : end + 1);
        if (end < 0) return null;
        this.skipping = false;
        continue;
      }
      if (end < 0) {
        if (this.length < limit) return null;
        // CRLF would make it longer than allowed: refuse now, skip the rest as it comes
        this.consume(buffered, buffered.length);
        this.skipping = true;
        return this.tooLong();
      }
      this.consume(buffered, end + 1);
      const line = buffered.subarray(0, buffered[end - 1] === CR ? end - 1 : end);
      // the limit counts CRLF; a bare LF is counted as if it were CRLF
      if (line.length + 2 > limit) return this.tooLong();
      if (this.rawLine) {
        this.rawLine = false;
        return { type: 'line', line: line.toString('utf8') };
      }
      if (line.length === 0) continue;
      return parseCommandLine(line);
    }
  }

  private tooLong(): Pop3ReaderEvent {
    this.rawLine = false;
    return { type: 'error', text: 'line too long' };
  }

  private consume(buffered: Buffer, count: number): void {
    const left = buffered.subarray(count);
    this.chunks = left.length > 0 ? [left] : [];
    this.length = left.length;
  }
}

/** `keyword *(SP argument)`: keywords are 3 or 4 letters (RFC 1939 section 3). */
function parseCommandLine(line: Buffer): Pop3ReaderEvent {
  if (line.includes(0)) return { type: 'error', text: 'NUL in command' };
  const text = line.toString('utf8');
  const space = text.indexOf(' ');
  const keyword = space < 0 ? text : text.slice(0, space);
  if (!/^[A-Za-z]{3,4}$/.test(keyword)) return { type: 'error', text: 'unknown command' };
  const rest = space < 0 ? '' : text.slice(space + 1);
  const args = rest === '' ? [] : rest.split(' ').filter((arg) => arg !== '');
  return { type: 'command', command: { name: keyword.toUpperCase(), args, rest } };
}
