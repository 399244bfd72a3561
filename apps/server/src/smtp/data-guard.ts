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

/**
 * Sits between smtp-server's DATA stream (already dot-unstuffed, RFC 5321 section 4.5.2) and the
 * spool file, and checks what smtp-server does not:
 *
 * - Size: smtp-server's `size` option only advertises SIZE (RFC 1870); it keeps reading. We count
 *   the bytes ourselves and, past the limit, stop passing data on but keep draining the socket so
 *   that the reply (552) arrives after the terminating "." as RFC 5321 section 4.1.1.4 requires.
 * - Bare CR and bare LF (SMTP smuggling, CVE-2023-51764 and kin). smtp-server ends DATA only on
 *   CRLF.CRLF, so it cannot itself be tricked into ending early, but it passes "\n.\n" or
 *   "\r\n.\r" through as content; a message carrying them could smuggle a second message into any
 *   MTA that later relays it with a laxer parser. RFC 5321 section 2.3.8 forbids them in SMTP, so
 *   the message is refused, as Postfix does with smtpd_forbid_bare_newline.
 * - Line length and the size of the header block.
 *
 * After a violation nothing more is emitted; `violation` says what happened.
 */
export class DataGuard extends Transform {
  violation: DataViolation | null = null;
  bytes = 0;
  private lastByte = -1;
  private lineBytes = 0;
  private inHeader = true;

  constructor(private readonly limits: DataGuardLimits) {
    super();
  }

  private fail(violation: DataViolation): void {
    if (!this.violation) this.violation = violation;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (!this.violation && this.bytes > this.limits.maxBytes) this.fail('too-big');
    if (this.violation) {
      done();
      return;
    }
    // A CR at the end of the previous chunk must be followed by LF here.
    if (this.lastByte === CR && chunk[0] !== LF) this.fail('bare-line-break');
    let cr = chunk.indexOf(CR);
    while (cr !== -1 && !this.violation) {
      if (cr + 1 < chunk.length && chunk[cr + 1] !== LF) this.fail('bare-line-break');
      cr = chunk.indexOf(CR, cr + 1);
    }
    let lineStart = 0;
    let lf = chunk.indexOf(LF);
    while (lf !== -1 && !this.violation) {
      const before = lf > 0 ? chunk[lf - 1] : this.lastByte;
      if (before !== CR) this.fail('bare-line-break');
      const length = this.lineBytes + (lf - lineStart) + 1;
      if (length > this.limits.maxLineBytes) this.fail('line-too-long');
      if (this.inHeader) {
        // The header block ends at the first empty line (RFC 5322 section 2.1).
        if (length <= 2) this.inHeader = false;
        else if (this.bytes - chunk.length + lf > this.limits.maxHeaderBytes) this.fail('header-too-large');
      }
      this.lineBytes = 0;
      lineStart = lf + 1;
      lf = chunk.indexOf(LF, lf + 1);
    }
    this.lineBytes += chunk.length - lineStart;
    if (this.lineBytes > this.limits.maxLineBytes) this.fail('line-too-long');
    if (this.inHeader && this.bytes > this.limits.maxHeaderBytes) this.fail('header-too-large');
    this.lastByte = chunk[chunk.length - 1] ?? this.lastByte;
    done(null, this.violation ? undefined : chunk);
  }

  override _flush(done: TransformCallback): void {
    // smtp-server keeps the CRLF that ends the last line, so a final lone CR is bare.
    if (!this.violation && this.lastByte === CR) this.fail('bare-line-break');
    done();
  }
}
