import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import addressparser from 'nodemailer/lib/addressparser';
import { rfc5322Date } from '../../protocols/mime/date-time.js';
import { readHeaderBlock } from '../../protocols/mime/header-block.js';
import { decodeWords, headerText } from '../../protocols/mime/header-fields.js';
import { newMessageId } from './compose.js';

/** One header field as the client wrote it: its lower-case name and its raw lines, folding kept. */
interface RawField {
  name: string;
  raw: Buffer;
}

/** The header block split into fields (RFC 5322 section 2.2; continuation lines start with WSP). */
function fieldsOf(block: Buffer): RawField[] {
  const fields: RawField[] = [];
  let start = 0;
  const push = (end: number) => {
    const raw = block.subarray(start, end);
    if (raw.length === 0) return;
    const colon = raw.indexOf(0x3a);
    const name = colon < 0 ? '' : raw.subarray(0, colon).toString('latin1').trim().toLowerCase();
    fields.push({ name, raw });
  };
  for (let index = 0; index < block.length; index++) {
    if (block[index] !== 0x0a) continue;
    const next = block[index + 1];
    if (next === 0x20 || next === 0x09) continue;
    const end = index > 0 && block[index - 1] === 0x0d ? index - 1 : index;
    push(end);
    start = index + 1;
  }
  push(block.length);
  return fields;
}

function fieldValue(field: RawField): string {
  const raw = field.raw;
  return decodeWords(headerText(raw.subarray(raw.indexOf(0x3a) + 1)));
}

/** Every address of an address list, groups opened. */
function addressesOf(value: string): string[] {
  const out: string[] = [];
  const visit = (entries: addressparser.AddressOrGroup[]) => {
    for (const entry of entries) {
      if ('group' in entry && entry.group) visit(entry.group);
      else if ('address' in entry && entry.address) out.push(entry.address);
    }
  };
  visit(addressparser(value));
  return out.map((address) => address.trim().toLowerCase()).filter(Boolean);
}

export interface SubmittedMessage {
  /** the addresses of the From field (RFC 5322 section 3.6.2) */
  from: string[];
  /** the message as it will be signed and sent: Bcc removed, Message-ID and Date added if missing */
  open(): Readable;
  messageId: string;
}

/**
 * What a mail client submitted (RFC 6409), made ready to send: RFC 6409 section 8 lets the
 * submission server complete a message: a missing Message-ID (section 8.3) and Date (section 8.2)
 * are added; Bcc is removed (RFC 5322 section 3.6.3: its recipients must not be shown to the
 * others, and most clients leave the field for the server to drop). The body is not touched.
 */
export async function readSubmittedMessage(
  path: string,
  size: number,
  senderDomain: string,
  now: Date,
): Promise<SubmittedMessage> {
  const block = await readHeaderBlock(createReadStream(path));
  // The header block ends at the first empty line; a message without one is all header.
  const bodyStart = Math.min(block.length + 4, size);
  const fields = fieldsOf(block);
  const from = fields
    .filter((field) => field.name === 'from')
    .flatMap((field) => addressesOf(fieldValue(field)));
  const kept = fields.filter((field) => field.name !== 'bcc');
  const existingId = fields.find((field) => field.name === 'message-id');
  const messageId = existingId ? fieldValue(existingId) : newMessageId(senderDomain);
  const added: Buffer[] = [];
  if (!existingId) added.push(Buffer.from(`Message-ID: ${messageId}`));
  if (!fields.some((field) => field.name === 'date')) added.push(Buffer.from(`Date: ${rfc5322Date(now)}`));
  const header = Buffer.concat(
    [...added, ...kept.map((field) => field.raw)].flatMap((line) => [line, Buffer.from('\r\n')]),
  );
  return {
    from,
    messageId,
    open: () => {
      async function* parts() {
        yield header;
        yield Buffer.from('\r\n');
        if (bodyStart < size) yield* createReadStream(path, { start: bodyStart });
      }
      return Readable.from(parts(), { objectMode: false });
    },
  };
}
