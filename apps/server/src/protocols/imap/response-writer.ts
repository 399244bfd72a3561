/**
 * IMAP server responses as bytes (RFC 3501 sections 7 and 9, RFC 9051 sections 7 and 9): tagged
 * and untagged status responses with their response codes (RFC 3501 section 7.1, RFC 4315 UIDPLUS,
 * RFC 5530, RFC 7162 CONDSTORE), untagged data, continuation requests, and values written as atom,
 * NIL, number, quoted string or literal, whichever the bytes allow.
 */
import { formatUidList } from './sequence-set.js';

/**
 * A value in a response. Text is written quoted, or as a literal when it holds CR, LF, NUL or
 * 8-bit bytes (RFC 3501 section 4.3); with UTF8=ACCEPT enabled, UTF-8 may stay quoted (RFC 9051
 * section 4.3, RFC 6855 section 3).
 */
export type ImapData =
  | null
  | number
  | bigint
  | string
  | Buffer
  | ImapData[]
  /** flags, keywords, capability names; space, parentheses, quote and brace are dropped */
  | { atom: string }
  /** always a literal; `binary` writes literal8 `~{n}` (RFC 3516 section 4.2) */
  | { literal: Buffer | string; binary?: boolean }
  /** a FETCH item name such as `BODY[HEADER.FIELDS (FROM)]<0>`, written as it is but for CR and LF */
  | { raw: string };

export interface WriteOptions {
  /** the client enabled UTF8=ACCEPT: UTF-8 text may be quoted */
  utf8: boolean;
}

export type StatusCondition = 'OK' | 'NO' | 'BAD';

export type ResponseCode =
  | {
      name:
        | 'ALERT'
        | 'PARSE'
        | 'READ-ONLY'
        | 'READ-WRITE'
        | 'TRYCREATE'
        | 'NOMODSEQ'
        | 'CLOSED'
        | 'UIDNOTSTICKY'
        | 'AUTHENTICATIONFAILED'
        | 'AUTHORIZATIONFAILED'
        | 'UNAVAILABLE'
        | 'EXPIRED'
        | 'PRIVACYREQUIRED'
        | 'CONTACTADMIN'
        | 'NOPERM'
        | 'INUSE'
        | 'EXPUNGEISSUED'
        | 'CORRUPTION'
        | 'SERVERBUG'
        | 'CLIENTBUG'
        | 'CANNOT'
        | 'LIMIT'
        | 'OVERQUOTA'
        | 'ALREADYEXISTS'
        | 'NONEXISTENT'
        | 'TOOBIG'
        | 'HASCHILDREN'
        | 'UNKNOWN-CTE';
    }
  | { name: 'UIDVALIDITY' | 'UIDNEXT' | 'UNSEEN' | 'HIGHESTMODSEQ' | 'APPENDLIMIT'; value: number }
  | { name: 'CAPABILITY'; capabilities: readonly string[] }
  | { name: 'PERMANENTFLAGS'; flags: readonly string[] }
  | { name: 'BADCHARSET'; charsets: readonly string[] }
  /** RFC 4315 section 3; several UIDs after MULTIAPPEND */
  | { name: 'APPENDUID'; uidValidity: number; uids: readonly number[] }
  /** RFC 4315 section 3: the n-th source UID became the n-th destination UID */
  | {
      name: 'COPYUID';
      uidValidity: number;
      sourceUids: readonly number[];
      destinationUids: readonly number[];
    }
  /** RFC 7162 section 3.1.3 */
  | { name: 'MODIFIED'; numbers: readonly number[] };

const CRLF = '\r\n';
const NO_OPTIONS: WriteOptions = { utf8: false };

export function formatResponseCode(code: ResponseCode): string {
  switch (code.name) {
    case 'UIDVALIDITY':
    case 'UIDNEXT':
    case 'UNSEEN':
    case 'HIGHESTMODSEQ':
    case 'APPENDLIMIT':
      return `${code.name} ${code.value}`;
    case 'CAPABILITY':
      return ['CAPABILITY', ...code.capabilities].join(' ');
    case 'PERMANENTFLAGS':
    case 'BADCHARSET':
      return `${code.name} (${(code.name === 'BADCHARSET' ? code.charsets : code.flags).join(' ')})`;
    case 'APPENDUID':
      return `APPENDUID ${code.uidValidity} ${formatUidList(code.uids)}`;
    case 'COPYUID':
      return `COPYUID ${code.uidValidity} ${formatUidList(code.sourceUids)} ${formatUidList(code.destinationUids)}`;
    case 'MODIFIED':
      return `MODIFIED ${formatUidList(code.numbers)}`;
    default:
      return code.name;
  }
}

/** `resp-text`: `[code] text`; CR and LF in the text would end the response early. */
function responseText(text: string, code?: ResponseCode): string {
  const clean = text.replace(/[\r\n\0]+/g, ' ').trim() || 'done';
  if (code !== undefined) return `[${formatResponseCode(code)}] ${clean}`;
  // a text starting with "[" would be read as a response code; SP is a TEXT-CHAR
  return clean.startsWith('[') ? ` ${clean}` : clean;
}

/** `tag OK [code] text` (RFC 3501 section 7.1). */
export function taggedResponse(
  tag: string,
  condition: StatusCondition,
  text: string,
  code?: ResponseCode,
): Buffer {
  return Buffer.from(`${tag} ${condition} ${responseText(text, code)}${CRLF}`, 'utf8');
}

/** `* OK`, `* NO`, `* BAD`, `* PREAUTH`, `* BYE` (RFC 3501 sections 7.1.1 to 7.1.5). */
export function untaggedStatus(
  condition: StatusCondition | 'PREAUTH' | 'BYE',
  text: string,
  code?: ResponseCode,
): Buffer {
  return Buffer.from(`* ${condition} ${responseText(text, code)}${CRLF}`, 'utf8');
}

/** `* ` then the values separated by spaces: `* 3 EXISTS`, `* 1 FETCH (...)`, `* LIST (...) "/" INBOX`. */
export function untaggedData(values: ImapData[], options: WriteOptions = NO_OPTIONS): Buffer {
  const pieces: Buffer[] = [Buffer.from('* ')];
  values.forEach((value, index) => {
    if (index > 0) pieces.push(Buffer.from(' '));
    writeData(value, pieces, options);
  });
  pieces.push(Buffer.from(CRLF));
  return Buffer.concat(pieces);
}

/** `+ text` (RFC 3501 section 7.5); AUTHENTICATE challenges are base64 text. */
export function continuationRequest(text = ''): Buffer {
  return Buffer.from(`+ ${text.replace(/[\r\n]+/g, ' ')}${CRLF}`, 'utf8');
}

/** One value as bytes. */
export function formatData(value: ImapData, options: WriteOptions = NO_OPTIONS): Buffer {
  const pieces: Buffer[] = [];
  writeData(value, pieces, options);
  return Buffer.concat(pieces);
}

function writeData(value: ImapData, pieces: Buffer[], options: WriteOptions): void {
  if (value === null) {
    pieces.push(Buffer.from('NIL'));
  } else if (typeof value === 'number' || typeof value === 'bigint') {
    pieces.push(Buffer.from(String(value)));
  } else if (typeof value === 'string' || Buffer.isBuffer(value)) {
    writeString(typeof value === 'string' ? Buffer.from(value, 'utf8') : value, pieces, options);
  } else if (Array.isArray(value)) {
    pieces.push(Buffer.from('('));
    value.forEach((item, index) => {
      if (index > 0) pieces.push(Buffer.from(' '));
      writeData(item, pieces, options);
    });
    pieces.push(Buffer.from(')'));
  } else if ('atom' in value) {
    pieces.push(Buffer.from(value.atom.replace(/[\s()"{]/g, ''), 'latin1'));
  } else if ('raw' in value) {
    pieces.push(Buffer.from(value.raw.replace(/[\r\n]/g, ''), 'latin1'));
  } else {
    const bytes = typeof value.literal === 'string' ? Buffer.from(value.literal, 'utf8') : value.literal;
    pieces.push(Buffer.from(`${value.binary ? '~' : ''}{${bytes.length}}${CRLF}`), bytes);
  }
}

function writeString(bytes: Buffer, pieces: Buffer[], options: WriteOptions): void {
  if (quotable(bytes, options)) {
    pieces.push(Buffer.from(`"${bytes.toString('utf8').replace(/["\\]/g, '\\$&')}"`, 'utf8'));
  } else {
    pieces.push(Buffer.from(`{${bytes.length}}${CRLF}`), bytes);
  }
}

/** RFC 3501 `quoted`: 7-bit without CR, LF and NUL; RFC 9051 adds UTF-8 once enabled. */
function quotable(bytes: Buffer, options: WriteOptions): boolean {
  let eightBit = false;
  for (const byte of bytes) {
    if (byte === 0 || byte === 0x0d || byte === 0x0a) return false;
    if (byte > 0x7f) eightBit = true;
  }
  if (!eightBit) return true;
  return options.utf8 && Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes);
}
