import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AddressObject, AttachmentStream, MailParser, MessageText } from 'mailparser';
import addressparser from 'nodemailer/lib/addressparser';
import { decodeBytes, looksGarbled } from '../../protocols/mime/charset.js';
import {
  decodeWords,
  type HeaderLines,
  legacyFilename,
  legacyHeaderValue,
  rawHeaderText,
  splitHeaderBlock,
} from '../../protocols/mime/header-fields.js';
import {
  type ParsedAddress,
  parseSimpleMessage,
  type SimpleMessage,
} from '../../protocols/mime/simple-message.js';

/**
 * mailparser (with mailsplit, libmime, html-to-text, linkify-it: some 5 MiB of heap) is loaded on
 * the first message the synchronous reader (protocols/mime/simple-message.ts) declines, so that a
 * store worker that only meets simple mail never loads it.
 */
let mailparserModule: Promise<typeof import('mailparser')> | undefined;
function loadMailparser(): Promise<typeof import('mailparser')> {
  mailparserModule ??= import('mailparser');
  return mailparserModule;
}

export interface MailPerson {
  name: string;
  address: string;
}

/**
 * An attachment as stored beside the message (JSON in `messages.attachments_json`). The bytes are
 * not copied: `index` is the attachment's position in parse order, and a download re-parses the
 * raw message and streams that one attachment (see mail-service.ts).
 */
export interface StoredAttachment {
  index: number;
  filename: string;
  contentType: string;
  size: number;
  contentId: string | null;
  inline: boolean;
  sha256: string;
}

export interface ParsedMail {
  subject: string;
  from: MailPerson | null;
  to: MailPerson[];
  cc: MailPerson[];
  date: number | null;
  messageId: string;
  text: string | null;
  html: string | null;
  attachments: StoredAttachment[];
  /** why the structure could not be read completely, or null */
  error: string | null;
}

/** Limits on what one message may contain (the DATA size is limited before parsing). */
export const PARSE_LIMITS = {
  /** bytes of header per MIME part (RFC 5322 section 2.1.1 has no limit; real mail stays far below) */
  maxHeadSize: 256 * 1024,
  /** MIME parts per message */
  maxChildNodes: 500,
};
/** Text kept in the database per body; longer bodies are cut (the raw message keeps everything). */
const MAX_BODY_CHARS = 2 * 1024 * 1024;

export class MessageLimitError extends Error {}

/**
 * Decodes text parts with charset.ts instead of mailparser's own choice, which takes a missing or
 * "utf-8" label at its word and turns GBK bytes into U+FFFD. Text parts are small and mailparser
 * holds them whole anyway, so buffering them here costs nothing extra.
 */
class TextPartDecoder extends Transform {
  private readonly chunks: Buffer[] = [];
  constructor(private readonly label: string) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.chunks.push(chunk);
    done();
  }
  override _flush(done: TransformCallback): void {
    done(null, Buffer.from(decodeBytes(Buffer.concat(this.chunks), this.label), 'utf8'));
  }
}

/** Marks text parts whose label mailparser would not decode, so that TextPartDecoder sees them. */
const SNIFF_CHARSET = 'x-youju-sniff';

interface MailsplitNode {
  /** mailsplit uses `false` for "none" */
  charset?: string | false;
  filename?: string | false;
  headers: { lines: HeaderLines };
}
interface MailParserInternals {
  decoder: { decodeStream(charset: string): Transform };
  createNode(node: MailsplitNode): unknown;
  headerLines: HeaderLines;
}

/**
 * A MailParser with our charset handling. Reaches into two internals of mailparser 3.9.31 (pinned
 * exactly in package.json): `decoder.decodeStream` and `createNode`; the fixture corpus covers both.
 */
export async function createMailParser(): Promise<MailParser> {
  const { MailParser } = await loadMailparser();
  const parser = new MailParser({
    ...PARSE_LIMITS,
    skipImageLinks: true,
    skipTextToHtml: true,
    skipTextLinks: true,
    maxHtmlLengthToParse: MAX_BODY_CHARS,
    checksumAlgo: 'sha256',
  } as ConstructorParameters<typeof MailParser>[0]);
  const internals = parser as unknown as MailParserInternals;
  internals.decoder = {
    decodeStream: (charset: string) => new TextPartDecoder(charset === SNIFF_CHARSET ? '' : charset),
  };
  const createNode = internals.createNode.bind(parser);
  internals.createNode = (node: MailsplitNode) => {
    const label = String(node.charset || '')
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '');
    if (label === '' || label === 'utf8' || label === 'ascii' || label === 'usascii') {
      node.charset = SNIFF_CHARSET;
    }
    const filename = legacyFilename(node.headers.lines);
    if (filename) node.filename = filename;
    return createNode(node);
  };
  return parser;
}

/** The mailboxes of address fields (groups flattened), as mailparser's entries give them. */
function people(fields: readonly (readonly ParsedAddress[])[]): MailPerson[] {
  const result: MailPerson[] = [];
  const visit = (entries: readonly ParsedAddress[]) => {
    for (const entry of entries) {
      if (entry.group) visit(entry.group);
      else result.push({ name: entry.name ?? '', address: (entry.address ?? '').toLowerCase() });
    }
  };
  for (const entries of fields) visit(entries);
  return result.slice(0, 500);
}

/** mailparser's header map entry for an address field: one object, or one per field. */
function mailparserPeople(value: AddressObject | AddressObject[] | undefined): MailPerson[] {
  const list = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return people(list.map((item) => item.value as ParsedAddress[]));
}

/** Addresses of a raw 8-bit header (old clients write display names in GBK without encoded words). */
function legacyPeople(lines: HeaderLines, key: string): MailPerson[] | null {
  const value = legacyHeaderValue(lines, key);
  if (value === null) return null;
  const result: MailPerson[] = [];
  const visit = (entries: ReturnType<typeof addressparser>) => {
    for (const entry of entries) {
      if ('group' in entry && entry.group) visit(entry.group);
      else if ('address' in entry)
        result.push({ name: decodeWords(entry.name ?? ''), address: (entry.address ?? '').toLowerCase() });
    }
  };
  visit(addressparser(value));
  return result.slice(0, 500);
}

function cut(text: string | null | undefined): string | null {
  if (text === undefined || text === null) return null;
  return text.length > MAX_BODY_CHARS ? text.slice(0, MAX_BODY_CHARS) : text;
}

function attachmentName(attachment: AttachmentStream, index: number): string {
  if (attachment.filename) return attachment.filename.replace(/[\\/\r\n\0]/g, '_').slice(0, 255);
  const type = attachment.contentType.toLowerCase();
  if (type === 'message/rfc822') return `message-${index + 1}.eml`;
  const extension = type.startsWith('image/') ? type.slice(6).replace(/[^a-z0-9]/g, '') : 'bin';
  return `attachment-${index + 1}.${extension || 'bin'}`;
}

/**
 * Runs the parser over a file and calls `onAttachment` with each attachment's stream (which it must
 * consume). Resolves with the text content and the top-level headers.
 */
async function runParser(
  source: NodeJS.ReadableStream,
  onAttachment: (attachment: AttachmentStream, index: number) => Promise<void>,
): Promise<{ parser: MailParser; text: MessageText | null }> {
  const parser = await createMailParser();
  let text: MessageText | null = null;
  let index = 0;
  const pending: Promise<void>[] = [];
  parser.on('data', (data: AttachmentStream | MessageText) => {
    if (data.type === 'text') {
      text = data;
      return;
    }
    const attachment = data;
    const position = index++;
    pending.push(
      onAttachment(attachment, position).finally(() => {
        attachment.release();
      }),
    );
  });
  await pipeline(source, parser);
  await Promise.all(pending);
  return { parser, text };
}

/** A message held in memory, or read from its file in 256 KiB chunks. */
function openSource(source: string | Buffer): Readable {
  return typeof source === 'string'
    ? createReadStream(source, { highWaterMark: 256 * 1024 })
    : Readable.from([source], { objectMode: false });
}

/** What was read from a message, before Youju's fallbacks for old 8-bit mail and empty bodies. */
interface MessageReading {
  /** the top-level header fields as mailsplit keeps them */
  lines: HeaderLines;
  /** mailparser's subject ('' for none) */
  subject: string;
  /** mailparser's mailboxes of each address field */
  from: () => MailPerson[];
  to: () => MailPerson[];
  cc: () => MailPerson[];
  date: number | null;
  messageId: string;
  text: string | null | undefined;
  html: string | null | undefined;
  attachments: StoredAttachment[];
}

/** The parsed message from a reading: raw GBK and Big5 headers, cut bodies, an empty body's fallback. */
async function finish(message: string | Buffer, reading: MessageReading): Promise<ParsedMail> {
  const { lines, attachments } = reading;
  let subject = reading.subject;
  const legacySubject = legacyHeaderValue(lines, 'subject');
  if (legacySubject !== null) subject = decodeWords(legacySubject);
  else if (looksGarbled(subject)) subject = rawHeaderText(lines, 'subject') ?? subject;
  const addresses = (key: 'from' | 'to' | 'cc') => legacyPeople(lines, key) ?? reading[key]();
  let bodyText = cut(reading.text);
  const html = cut(reading.html);
  if (!bodyText?.trim() && !html && attachments.length === 0) {
    // Nothing readable came out (a multipart whose boundary never appears, for instance): show
    // the body as text rather than an empty message.
    const head = typeof message === 'string' ? await readHead(message) : headOf(message);
    bodyText = head.body || bodyText;
  }
  return {
    subject: subject.slice(0, 998),
    from: addresses('from')[0] ?? null,
    to: addresses('to'),
    cc: addresses('cc'),
    date: reading.date,
    messageId: reading.messageId.slice(0, 998),
    text: bodyText,
    html,
    attachments: attachments.sort((a, b) => a.index - b.index),
    error: null,
  };
}

/** A reading of what protocols/mime/simple-message.ts read. */
function simpleReading(simple: SimpleMessage): MessageReading {
  return {
    lines: simple.headerLines,
    subject: simple.subject ?? '',
    from: () => people(simple.from ? [simple.from] : []),
    to: () => people(simple.to),
    cc: () => people(simple.cc),
    date: simple.date ?? null,
    messageId: simple.messageId ?? '',
    text: simple.text,
    html: simple.html,
    attachments: [],
  };
}

/** Simple mail read without streams, or null (see protocols/mime/simple-message.ts). */
function readSimple(message: Buffer): SimpleMessage | null {
  try {
    return parseSimpleMessage(message, {
      maxHeadSize: PARSE_LIMITS.maxHeadSize,
      maxHtmlLengthToParse: MAX_BODY_CHARS,
    });
  } catch {
    // The reader never throws by design; if it ever does, mailparser reads the message.
    return null;
  }
}

/**
 * Parses a received message (in memory, or a file path), streaming: attachments are counted and
 * hashed, never held. A failure never loses the message (it is stored raw regardless): what could
 * be read is returned, with `error` set, and headers fall back to a plain read of the header block.
 * Simple mail held in memory is read synchronously instead, to the same result.
 */
export async function parseMail(message: string | Buffer): Promise<ParsedMail> {
  if (typeof message !== 'string') {
    const simple = readSimple(message);
    if (simple !== null) return finish(message, simpleReading(simple));
  }
  return parseWithMailparser(message);
}

/** The synchronous reader alone (null: it declined). For the differential test; use parseMail. */
export async function parseSimpleOnly(message: Buffer): Promise<ParsedMail | null> {
  const simple = readSimple(message);
  return simple === null ? null : finish(message, simpleReading(simple));
}

/** mailparser alone. For the differential test; use parseMail. */
export async function parseWithMailparser(message: string | Buffer): Promise<ParsedMail> {
  const attachments: StoredAttachment[] = [];
  try {
    const source = openSource(message);
    const { parser, text } = await runParser(source, async (attachment, index) => {
      let size = 0;
      attachment.content.on('data', (chunk: Buffer) => {
        size += chunk.length;
      });
      await new Promise<void>((resolve, reject) => {
        attachment.content.once('end', resolve);
        attachment.content.once('error', reject);
      });
      attachments.push({
        index,
        filename: attachmentName(attachment, index),
        contentType: attachment.contentType || 'application/octet-stream',
        size,
        contentId: attachment.cid ?? null,
        inline:
          attachment.contentDisposition === 'inline' || (attachment.related === true && !!attachment.cid),
        sha256: attachment.checksum,
      });
    });
    const headers = (parser as unknown as { headers: Map<string, unknown> | false }).headers || new Map();
    const date = headers.get('date');
    const messageText = text as MessageText | null;
    return await finish(message, {
      lines: (parser as unknown as MailParserInternals).headerLines,
      subject: typeof headers.get('subject') === 'string' ? (headers.get('subject') as string) : '',
      from: () => mailparserPeople(headers.get('from') as AddressObject | undefined),
      to: () => mailparserPeople(headers.get('to') as AddressObject | undefined),
      cc: () => mailparserPeople(headers.get('cc') as AddressObject | undefined),
      date: date instanceof Date && !Number.isNaN(date.getTime()) ? date.getTime() : null,
      messageId: String(headers.get('message-id') ?? ''),
      text: messageText?.text,
      html: typeof messageText?.html === 'string' ? messageText.html : null,
      attachments,
    });
  } catch (error) {
    if ((error as { code?: string }).code === 'EMAXLEN') {
      throw new MessageLimitError((error as Error).message);
    }
    return fallbackParse(message, attachments, String((error as Error).message ?? error));
  }
}

/** The first 512 KiB of a message split into header block and body text. */
async function readHead(message: string | Buffer): Promise<{ headerBytes: Buffer; body: string }> {
  if (typeof message !== 'string') return headOf(message);
  const handle = await open(message, 'r');
  const buffer = Buffer.alloc(512 * 1024);
  try {
    return headOf(buffer.subarray(0, (await handle.read(buffer, 0, buffer.length, 0)).bytesRead));
  } finally {
    await handle.close();
  }
}

function headOf(message: Buffer): { headerBytes: Buffer; body: string } {
  const head = message.subarray(0, 512 * 1024);
  const split = head.indexOf('\r\n\r\n') >= 0 ? head.indexOf('\r\n\r\n') : head.indexOf('\n\n');
  const headerBytes = split >= 0 ? head.subarray(0, split) : head;
  const body = split >= 0 ? decodeBytes(head.subarray(split)).trim() : '';
  return { headerBytes, body };
}

/** Reads the header block by hand when the MIME structure defeated the parser. */
async function fallbackParse(
  message: string | Buffer,
  attachments: StoredAttachment[],
  error: string,
): Promise<ParsedMail> {
  const { headerBytes, body } = await readHead(message);
  const lines = splitHeaderBlock(headerBytes);
  const header = (key: string) => rawHeaderText(lines, key) ?? '';
  const person = (value: string): MailPerson | null => {
    const match = /^(.*?)<([^>]+)>/.exec(value);
    if (match)
      return { name: (match[1] ?? '').trim().replace(/^"|"$/g, ''), address: (match[2] ?? '').toLowerCase() };
    return value.includes('@') ? { name: '', address: value.trim().toLowerCase() } : null;
  };
  const date = Date.parse(header('date'));
  return {
    subject: header('subject').slice(0, 998),
    from: person(header('from')),
    to: header('to')
      .split(',')
      .map(person)
      .filter((p): p is MailPerson => p !== null),
    cc: [],
    date: Number.isFinite(date) ? date : null,
    messageId: header('message-id').slice(0, 998),
    text: body.slice(0, MAX_BODY_CHARS),
    html: null,
    attachments,
    error: error.slice(0, 500),
  };
}

/** Streams one attachment's decoded bytes out of a raw message, found by its parse-order index. */
export async function extractAttachment(
  source: NodeJS.ReadableStream,
  wanted: number,
  sink: (content: Readable) => Promise<void>,
): Promise<boolean> {
  let found = false;
  await runParser(source, async (attachment, index) => {
    if (index === wanted) {
      found = true;
      await sink(attachment.content as Readable);
    } else {
      const content = attachment.content as Readable;
      content.resume();
      await new Promise<void>((resolve) => content.once('end', resolve));
    }
  });
  return found;
}
