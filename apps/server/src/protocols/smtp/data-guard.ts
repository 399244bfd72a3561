/**
 * The DATA of an inbound SMTP transaction as it is received: size (RFC 1870), line ends (RFC 5321
 * sections 2.3.8 and 4.1.1.4, and SMTP smuggling), line length (section 4.5.3.1.6) and the header
 * block (RFC 5322 section 2.1). The verdict is for the listener to turn into a reply.
 */
import { Transform, type TransformCallback } from 'node:stream';

const CR = 0x0d;
const LF = 0x0a;

export type DataViolation = 'too-big' | 'bare-line-break' | 'line-too-long' | 'header-too-large';

export interface DataGuardLimits {
  maxBytes: number;
  /** RFC 5321 section 4.5.3.1.6 sets 1000 octets for senders; receivers should be lenient */
  maxLineBytes: number;
  maxHeaderBytes: number;
}

const CRLF = Buffer.from('\r\n');

/**
 * Sits between smtp-server's DATA stream (already dot-unstuffed, RFC 5321 section 4.5.2) and the
 * spool, and does what smtp-server does not:
 *
 * - Size: smtp-server's `size` option only advertises SIZE (RFC 1870); it keeps reading. We count
 *   the bytes ourselves and, past the limit, stop passing data on but keep draining the socket so
 *   that the reply (552) arrives after the terminating "." as RFC 5321 section 4.1.1.4 requires.
 * - Bare LF is taken as a line end and stored as CRLF, as Postfix 3.9 does by default
 *   (`smtpd_forbid_bare_newline = normalize`): many scripts (Python's smtplib given bytes, PHP's
 *   mail()) send LF-only lines, and refusing them loses real mail. Only CRLF "." CRLF ends the data
 *   (smtp-server), so a bare LF can never end it early.
 * - SMTP smuggling (CVE-2023-51764 and kin): a lone "." line next to a bare LF ("\n.\n",
 *   "\n.\r\n", "\r\n.\n") is an end-of-data marker for laxer MTAs that might relay this message, and
 *   a bare CR ("\r.\r", "\r\n.\r", "\n.\r") is one for others still; RFC 5321 section 2.3.8 forbids
 *   bare CR outright. Such a message is refused.
 * - Line length and the size of the header block.
 *
 * After a violation nothing more is emitted; `violation` says what happened.
 */
export class DataGuard extends Transform {
  violation: DataViolation | null = null;
  bytes = 0;
  /** the previous chunk ended with CR: the next byte must be LF */
  private pendingCr = false;
  /** bytes of the current line so far (a CR before its LF included) */
  private lineBytes = 0;
  /** the current line's first byte, once it has one */
  private lineFirst = -1;
  /** the line before the current one ended with a bare LF */
  private previousEndBare = false;
  private inHeader = true;
  /** bytes of the header block so far */
  private headerBytes = 0;

  constructor(private readonly limits: DataGuardLimits) {
    super();
  }

  private fail(violation: DataViolation): void {
    if (!this.violation) this.violation = violation;
  }

  /** One line has ended: `content` bytes before its terminator (CRLF, or a bare LF). */
  private endLine(content: number, bare: boolean, isDot: boolean): void {
    if (isDot && (bare || this.previousEndBare)) this.fail('bare-line-break');
    const length = content + (bare ? 1 : 2);
    if (length > this.limits.maxLineBytes) this.fail('line-too-long');
    if (this.inHeader) {
      // The header block ends at the first empty line (RFC 5322 section 2.1).
      if (content === 0) this.inHeader = false;
      else {
        this.headerBytes += length;
        if (this.headerBytes > this.limits.maxHeaderBytes) this.fail('header-too-large');
      }
    }
    this.previousEndBare = bare;
    this.lineBytes = 0;
    this.lineFirst = -1;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (!this.violation && this.bytes > this.limits.maxBytes) this.fail('too-big');
    if (this.violation || chunk.length === 0) {
      done();
      return;
    }
    // Bare CR: a CR must be followed by LF, also across a chunk boundary (searched with indexOf:
    // this runs for every byte of every message).
    const crBefore = this.pendingCr;
    if (crBefore && chunk[0] !== LF) this.fail('bare-line-break');
    for (let cr = chunk.indexOf(CR); cr !== -1 && !this.violation; cr = chunk.indexOf(CR, cr + 1)) {
      if (cr + 1 < chunk.length && chunk[cr + 1] !== LF) this.fail('bare-line-break');
    }
    this.pendingCr = chunk[chunk.length - 1] === CR;

    const out: Buffer[] = [];
    let copyFrom = 0;
    let start = 0;
    for (let lf = chunk.indexOf(LF); lf !== -1 && !this.violation; lf = chunk.indexOf(LF, start)) {
      const before = lf > 0 ? chunk[lf - 1] : crBefore ? CR : -1;
      const bare = before !== CR;
      const length = this.lineBytes + (lf - start);
      const content = bare ? length : length - 1;
      const first = this.lineBytes > 0 ? this.lineFirst : lf > start ? (chunk[start] ?? -1) : -1;
      if (bare) {
        // Store the line end as CRLF.
        out.push(chunk.subarray(copyFrom, lf), CRLF);
        copyFrom = lf + 1;
      }
      this.endLine(content, bare, content === 1 && first === 0x2e);
      start = lf + 1;
    }
    if (start < chunk.length) {
      if (this.lineBytes === 0) this.lineFirst = chunk[start] ?? -1;
      this.lineBytes += chunk.length - start;
      if (this.lineBytes > this.limits.maxLineBytes) this.fail('line-too-long');
      if (this.inHeader && this.headerBytes + this.lineBytes > this.limits.maxHeaderBytes) {
        this.fail('header-too-large');
      }
    }
    if (this.violation) {
      done();
      return;
    }
    if (copyFrom === 0) {
      done(null, chunk);
      return;
    }
    out.push(chunk.subarray(copyFrom));
    done(null, Buffer.concat(out));
  }

  override _flush(done: TransformCallback): void {
    // smtp-server keeps the CRLF that ends the last line, so a final lone CR is bare.
    if (!this.violation && this.pendingCr) this.fail('bare-line-break');
    done();
  }
}
