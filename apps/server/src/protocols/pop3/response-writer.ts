/**
 * POP3 server responses as bytes (RFC 1939 section 3, RFC 2449 sections 5 and 8 for CAPA and
 * extended response codes, RFC 5034 section 4 for AUTH continuations): `+OK` and `-ERR` lines,
 * multi-line responses with their lines byte-stuffed and ended by "." (RFC 1939 section 3), line
 * ends normalised to CRLF, and what TOP sends of a message (RFC 1939 section 7).
 */

const CR = 0x0d;
const LF = 0x0a;
const DOT = 0x2e;
const CRLF = '\r\n';
const TERMINATOR = Buffer.from(`.${CRLF}`);

/** RFC 2449 section 8 and RFC 3206: why a command failed, for clients that act on it. */
export type Pop3ResponseCode = 'IN-USE' | 'LOGIN-DELAY' | 'SYS/TEMP' | 'SYS/PERM' | 'AUTH' | 'UTF8';

function oneLine(text: string): string {
  return text.replace(/[\r\n\0]+/g, ' ');
}

export function okResponse(text = ''): Buffer {
  return Buffer.from(`+OK${text === '' ? '' : ` ${oneLine(text)}`}${CRLF}`, 'utf8');
}

export function errResponse(text: string, code?: Pop3ResponseCode): Buffer {
  const body = code === undefined ? oneLine(text) : `[${code}] ${oneLine(text)}`;
  return Buffer.from(`-ERR ${body}${CRLF}`, 'utf8');
}

/** `+ base64` for AUTH (RFC 5034 section 4); `+ ` alone asks for the initial response. */
export function continuationResponse(base64 = ''): Buffer {
  return Buffer.from(`+ ${oneLine(base64)}${CRLF}`, 'latin1');
}

/** `+OK text`, the lines (stuffed), then "." (CAPA, LIST, UIDL without argument). */
export function multiLineResponse(text: string, lines: string[]): Buffer {
  const body = lines
    .map((line) => `${oneLine(line).startsWith('.') ? '.' : ''}${oneLine(line)}${CRLF}`)
    .join('');
  return Buffer.concat([okResponse(text), Buffer.from(body, 'utf8'), TERMINATOR]);
}

/** RFC 1939 section 7 `unique-id`: 1 to 70 characters from 0x21 to 0x7E. */
export function isUniqueId(text: string): boolean {
  return /^[\x21-\x7e]{1,70}$/.test(text);
}

/**
 * A message as the body of RETR or TOP, in pieces as it is read from storage: lines that begin
 * with "." get another (RFC 1939 section 3), LF and CR alone become CRLF, and `end` closes it with
 * CRLF "." CRLF.
 */
export class DotStuffer {
  private atLineStart = true;
  private pendingCr = false;

  push(chunk: Buffer): Buffer {
    // every byte may become two: a dot doubled, a lone CR or LF made CRLF
    const out = Buffer.allocUnsafe(chunk.length * 2 + 2);
    let size = 0;
    for (const byte of chunk) {
      if (this.pendingCr) {
        this.pendingCr = false;
        out[size++] = CR;
        out[size++] = LF;
        this.atLineStart = true;
        if (byte === LF) continue;
      }
      if (byte === CR) {
        this.pendingCr = true;
      } else if (byte === LF) {
        out[size++] = CR;
        out[size++] = LF;
        this.atLineStart = true;
      } else {
        if (this.atLineStart && byte === DOT) out[size++] = DOT;
        out[size++] = byte;
        this.atLineStart = false;
      }
    }
    return out.subarray(0, size);
  }

  /** The rest: a CRLF if the message did not end a line, then "." CRLF. */
  end(): Buffer {
    const ending = this.pendingCr || !this.atLineStart ? CRLF : '';
    this.pendingCr = false;
    this.atLineStart = true;
    return Buffer.concat([Buffer.from(ending), TERMINATOR]);
  }
}

/** `message` stuffed and terminated, in one piece. */
export function dotStuff(message: Buffer): Buffer {
  const stuffer = new DotStuffer();
  return Buffer.concat([stuffer.push(message), stuffer.end()]);
}

/**
 * What TOP sends, before stuffing (RFC 1939 section 7): the header, the blank line after it, and
 * the first `lines` lines of the body. A message without a blank line is all header.
 */
export function topOf(message: Buffer, lines: number): Buffer {
  let at = 0;
  let inHeader = true;
  let bodyLines = 0;
  while (at < message.length) {
    if (!inHeader && bodyLines >= lines) break;
    const end = message.indexOf(LF, at);
    const next = end < 0 ? message.length : end + 1;
    if (inHeader) {
      // the blank line: LF alone, or CR LF
      const length = end < 0 ? next - at : end - at;
      if (length === 0 || (length === 1 && message[at] === CR)) inHeader = false;
    } else {
      bodyLines++;
    }
    at = next;
  }
  return message.subarray(0, at);
}
