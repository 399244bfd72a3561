/**
 * ENVELOPE and BODY / BODYSTRUCTURE (RFC 3501 sections 7.4.2 and 9 `envelope`, `body`; RFC 9051
 * section 7.5.2) from a plain description of a parsed message, which the caller's MIME parser
 * supplies. Header values are given raw, encoded words and all: RFC 3501 wants them undecoded.
 */
import type { ImapData } from './response-writer.js';

/** text as it appears in the header; 8-bit bytes are written as a literal */
export type HeaderText = string | Buffer | null;

/** `mailbox@host` with its display name (RFC 5322 section 3.4) */
export interface Address {
  name: HeaderText;
  /** local part */
  mailbox: HeaderText;
  host: HeaderText;
}

/** `group: members;` (RFC 5322 section 3.4), written with start and end markers */
export interface AddressGroup {
  group: HeaderText;
  members: Address[];
}

export type AddressEntry = Address | AddressGroup;

export interface Envelope {
  date: HeaderText;
  subject: HeaderText;
  from: AddressEntry[];
  /** empty: the server writes From instead (RFC 3501 section 7.4.2) */
  sender: AddressEntry[];
  /** empty: the server writes From instead */
  replyTo: AddressEntry[];
  to: AddressEntry[];
  cc: AddressEntry[];
  bcc: AddressEntry[];
  inReplyTo: HeaderText;
  messageId: HeaderText;
}

export interface Disposition {
  /** `inline`, `attachment` */
  type: string;
  parameters: Record<string, HeaderText>;
}

/** One MIME part. Names of types and parameters are written upper-cased, as is customary. */
export interface BodyPart {
  type: string;
  subtype: string;
  /** Content-Type parameters (charset, name, boundary...) */
  parameters: Record<string, HeaderText>;
  /** for multipart: the parts inside */
  children?: BodyPart[];
  id?: HeaderText;
  description?: HeaderText;
  /** Content-Transfer-Encoding; 7BIT when absent */
  encoding?: string;
  /** octets of the encoded body */
  size?: number;
  /** lines of the encoded body, for text/* and message/rfc822 */
  lines?: number;
  /** for message/rfc822 (and message/global, RFC 6532): the message inside */
  message?: { envelope: Envelope; body: BodyPart };
  md5?: HeaderText;
  disposition?: Disposition | null;
  language?: string[] | null;
  location?: HeaderText;
}

/** `envelope`: `(date subject from sender reply-to to cc bcc in-reply-to message-id)`. */
export function envelopeData(envelope: Envelope): ImapData {
  const from = addressesData(envelope.from);
  const orFrom = (entries: AddressEntry[]): ImapData =>
    entries.length === 0 ? from : addressesData(entries);
  return [
    envelope.date,
    envelope.subject,
    from,
    orFrom(envelope.sender),
    orFrom(envelope.replyTo),
    addressesData(envelope.to),
    addressesData(envelope.cc),
    addressesData(envelope.bcc),
    envelope.inReplyTo,
    envelope.messageId,
  ];
}

/** A list of `address` (`(name adl mailbox host)`), NIL when empty; groups as RFC 3501 7.4.2 says. */
function addressesData(entries: AddressEntry[]): ImapData {
  const list: ImapData[] = [];
  for (const entry of entries) {
    if ('group' in entry) {
      list.push([null, null, entry.group, null]);
      for (const member of entry.members) list.push(addressData(member));
      list.push([null, null, null, null]);
    } else {
      list.push(addressData(entry));
    }
  }
  return list.length === 0 ? null : list;
}

function addressData(address: Address): ImapData {
  // `addr-adl` (source route) is obsolete: always NIL
  return [address.name, null, address.mailbox, address.host];
}

/** BODY when `extended` is false, BODYSTRUCTURE when true (RFC 3501 section 7.4.2). */
export function bodyStructureData(part: BodyPart, extended: boolean): ImapData {
  if (part.children !== undefined && part.type.toLowerCase() === 'multipart') {
    // body-type-mpart needs at least one body (RFC 3501 section 9): a multipart without parts
    // is described as holding one empty text/plain part.
    const children: BodyPart[] =
      part.children.length > 0
        ? part.children
        : [{ type: 'TEXT', subtype: 'PLAIN', parameters: {}, size: 0, lines: 0 }];
    const data: ImapData[] = children.map((child) => bodyStructureData(child, extended));
    data.push(part.subtype.toUpperCase());
    if (extended) data.push(parametersData(part.parameters), ...extensionData(part));
    return data;
  }
  const type = part.type.toUpperCase();
  const subtype = part.subtype.toUpperCase();
  const data: ImapData[] = [
    type,
    subtype,
    parametersData(part.parameters),
    part.id ?? null,
    part.description ?? null,
    (part.encoding ?? '7BIT').toUpperCase(),
    part.size ?? 0,
  ];
  if (part.message !== undefined && type === 'MESSAGE') {
    data.push(
      envelopeData(part.message.envelope),
      bodyStructureData(part.message.body, extended),
      part.lines ?? 0,
    );
  } else if (type === 'TEXT') {
    data.push(part.lines ?? 0);
  }
  if (extended) data.push(part.md5 ?? null, ...extensionData(part));
  return data;
}

/** `body-ext-1part` / `body-ext-mpart` after MD5 or the parameters: disposition, language, location. */
function extensionData(part: BodyPart): ImapData[] {
  const disposition = part.disposition
    ? [part.disposition.type.toUpperCase(), parametersData(part.disposition.parameters)]
    : null;
  const language = part.language && part.language.length > 0 ? part.language : null;
  return [disposition, language, part.location ?? null];
}

/** `body-fld-param`: `("NAME" "value" ...)` or NIL. */
function parametersData(parameters: Record<string, HeaderText>): ImapData {
  const list: ImapData[] = [];
  for (const [name, value] of Object.entries(parameters)) list.push(name.toUpperCase(), value ?? '');
  return list.length === 0 ? null : list;
}
