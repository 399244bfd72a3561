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
  /** a CR ended the previous chunk: the next byte must be LF */
  private pendingCr = false;
  private lineBytes = 0;
  /** the current line so far is exactly "." (or is empty, when lineBytes is 0) */
  private lineIsDot = false;
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

  /** One line has ended (its terminator CRLF or bare LF); `length` counts the terminator. */
  private endLine(length: number, bare: boolean): void {
    if (this.lineIsDot && (bare || this.previousEndBare)) this.fail('bare-line-break');
    if (length > this.limits.maxLineBytes) this.fail('line-too-long');
    if (this.inHeader) {
      // The header block ends at the first empty line (RFC 5322 section 2.1).
      if (length - (bare ? 1 : 2) === 0) this.inHeader = false;
      else {
        this.headerBytes += length;
        if (this.headerBytes > this.limits.maxHeaderBytes) this.fail('header-too-large');
      }
    }
    this.previousEndBare = bare;
    this.lineBytes = 0;
    this.lineIsDot = false;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (!this.violation && this.bytes > this.limits.maxBytes) this.fail('too-big');
    if (this.violation) {
      done();
      return;
    }
    const out: Buffer[] = [];
    let copyFrom = 0;
    for (let index = 0; index < chunk.length && !this.violation; index++) {
      const byte = chunk[index];
      if (this.pendingCr) {
        this.pendingCr = false;
        if (byte !== LF) {
          this.fail('bare-line-break');
          break;
        }
        this.endLine(this.lineBytes + 1, false);
        continue;
      }
      if (byte === CR) {
        if (index + 1 < chunk.length) {
          if (chunk[index + 1] !== LF) {
            this.fail('bare-line-break');
            break;
          }
          this.lineBytes += 1;
          continue;
        }
        this.lineBytes += 1;
        this.pendingCr = true;
        continue;
      }
      if (byte === LF) {
        const bare = index === 0 ? true : chunk[index - 1] !== CR;
        if (bare) {
          // Store the line end as CRLF.
          out.push(chunk.subarray(copyFrom, index), CRLF);
          copyFrom = index + 1;
          this.endLine(this.lineBytes + 1, true);
        } else {
          this.endLine(this.lineBytes + 1, false);
        }
        continue;
      }
      this.lineIsDot = this.lineBytes === 0 && byte === 0x2e;
      this.lineBytes += 1;
      if (this.lineBytes > this.limits.maxLineBytes) this.fail('line-too-long');
    }
    if (this.inHeader && this.headerBytes + this.lineBytes > this.limits.maxHeaderBytes) {
      this.fail('header-too-large');
    }
    if (this.violation) {
      done();
      return;
    }
    out.push(chunk.subarray(copyFrom));
    done(null, out.length === 1 ? out[0] : Buffer.concat(out));
  }

  override _flush(done: TransformCallback): void {
    // smtp-server keeps the CRLF that ends the last line, so a final lone CR is bare.
    if (!this.violation && this.pendingCr) this.fail('bare-line-break');
    done();
  }
}
