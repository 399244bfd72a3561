import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import DKIM from 'nodemailer/lib/dkim';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { SigningKey } from '../dkim/index.js';
import { CHUNK_BYTES } from './chunks.js';
import { htmlToPlainText } from './plain-text.js';

export interface ComposeAttachment {
  filename: string;
  contentType: string;
  open(): Readable;
}

export interface ComposeInput {
  from: string;
  /** the sender's display name (personal settings); empty for a bare address */
  fromName?: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  html: string | null;
  text: string | null;
  attachments: ComposeAttachment[];
  /** Message-ID of the message answered, with angle brackets */
  inReplyTo: string | null;
  references: string[];
  date: Date;
}

export interface ComposedMessage {
  path: string;
  size: number;
  sha256: string;
  messageId: string;
  /** the plain text actually sent (given or generated from the HTML) */
  text: string;
}

/** A Message-ID on the sender's own domain (RFC 5322 section 3.6.4: unique, right side a domain). */
export function newMessageId(senderDomain: string): string {
  return `<${randomUUID()}@${senderDomain}>`;
}

class Measure extends Transform {
  size = 0;
  readonly hash = createHash('sha256');
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    this.hash.update(chunk);
    done(null, chunk);
  }
}

/**
 * Builds the message with nodemailer's MailComposer (MIME per RFC 2045–2049, UTF-8 headers as
 * RFC 2047 encoded words, RFC 2231 file names, Date and Message-ID per RFC 5322 section 3.6,
 * In-Reply-To and References per section 3.6.4; Bcc is left out of the header, section 3.6.3) and
 * signs it (signToFile). Attachments stream from the database.
 */
export async function composeToFile(
  input: ComposeInput,
  keys: SigningKey[],
  spoolDir: string,
): Promise<ComposedMessage> {
  const senderDomain = input.from.slice(input.from.lastIndexOf('@') + 1);
  const messageId = newMessageId(senderDomain);
  const text = input.text ?? (input.html ? htmlToPlainText(input.html) : '');
  const composer = new MailComposer({
    from: input.fromName ? { name: input.fromName, address: input.from } : input.from,
    to: input.to,
    cc: input.cc.length > 0 ? input.cc : undefined,
    bcc: input.bcc.length > 0 ? input.bcc : undefined,
    subject: input.subject,
    messageId,
    date: input.date,
    inReplyTo: input.inReplyTo ?? undefined,
    references: input.references.length > 0 ? input.references : undefined,
    text,
    html: input.html ?? undefined,
    attachments: input.attachments.map((attachment) => ({
      filename: attachment.filename,
      contentType: attachment.contentType,
      content: attachment.open(),
    })),
    // Content never names files or URLs (attachments come from uploads), and must not be made to.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  const signed = await signToFile(composer.compile().createReadStream(), keys, spoolDir, senderDomain);
  return { ...signed, messageId, text };
}

export interface SignedMessage {
  path: string;
  size: number;
  sha256: string;
}

/**
 * Signs a finished message with the sender domain's DKIM keys (RFC 6376, relaxed/relaxed) into a
 * spool file: the RSA key as the message streams out (rsa-sha256), and an ed25519 key if the domain
 * has one (RFC 8463, ed25519-sha256) in a second pass over the written file, so that receivers which
 * know ed25519 can check either signature. The RSA signer buffers bodies above 1 MiB on disk and the
 * ed25519 pass reads the file, so a large message is never held in memory. Used for what sendEmail
 * composes and for what a mail client submits (SMTP submission) alike.
 */
export async function signToFile(
  message: Readable,
  keys: SigningKey[],
  spoolDir: string,
  senderDomain: string,
): Promise<SignedMessage> {
  await mkdir(spoolDir, { recursive: true });
  let source: Readable = message;
  const rsa = keys.find((key) => key.algorithm === 'rsa');
  if (rsa) {
    const signer = new DKIM({
      domainName: rsa.domain,
      keySelector: rsa.selector,
      privateKey: rsa.privateKey,
      cacheDir: spoolDir,
      cacheTreshold: 1024 * 1024,
    });
    source = signer.sign(source);
  }
  const ed25519 = keys.filter((key) => key.algorithm === 'ed25519');
  const path = join(spoolDir, `outbound-${Date.now()}-${randomUUID()}.eml`);
  const measure = new Measure();
  try {
    if (ed25519.length === 0) {
      await pipeline(source, measure, createWriteStream(path, { highWaterMark: CHUNK_BYTES }));
    } else {
      const unsigned = `${path}.rsa`;
      try {
        await pipeline(source, createWriteStream(unsigned, { highWaterMark: CHUNK_BYTES }));
        // mailauth's signing file, not its top module (which loads its BIMI code: undici, pkijs).
        const { dkimSign } = await import('mailauth/lib/dkim/sign.js');
        const signed = await dkimSign(createReadStream(unsigned, { highWaterMark: CHUNK_BYTES }), {
          signingDomain: senderDomain,
          selector: ed25519[0]?.selector ?? '',
          privateKey: ed25519[0]?.privateKey ?? '',
          signatureData: ed25519.map((key) => ({
            signingDomain: key.domain,
            selector: key.selector,
            privateKey: key.privateKey,
            algorithm: 'ed25519-sha256',
            canonicalization: 'relaxed/relaxed',
          })),
        });
        if (signed.errors?.length) throw signed.errors[0];
        // The signatures go in front of the RSA-signed message (RFC 6376 section 5.6).
        const header = Buffer.from(signed.signatures, 'latin1');
        await pipeline(
          async function* () {
            yield header;
            yield* createReadStream(unsigned, { highWaterMark: CHUNK_BYTES });
          },
          measure,
          createWriteStream(path, { highWaterMark: CHUNK_BYTES }),
        );
      } finally {
        await rm(unsigned, { force: true });
      }
    }
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
  return { path, size: measure.size, sha256: measure.hash.digest('hex') };
}
