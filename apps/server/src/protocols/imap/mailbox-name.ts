/**
 * Mailbox names in modified UTF-7 (RFC 3501 section 5.1.3): printable US-ASCII stands for itself
 * except "&", written "&-"; anything else is UTF-16 in modified base64 ("," for "/", no padding)
 * between "&" and "-". Clients without UTF8=ACCEPT (RFC 6855) name Chinese folders this way.
 */
import { ImapSyntaxError } from './imap-value.js';

const PRINTABLE = /^[\x20-\x7e]$/;

export function encodeMailboxName(name: string): string {
  let out = '';
  let pending = '';
  const flush = (): void => {
    if (pending === '') return;
    const utf16 = Buffer.from(pending, 'utf16le').swap16();
    out += `&${utf16.toString('base64').replace(/=+$/, '').replaceAll('/', ',')}-`;
    pending = '';
  };
  for (const char of name) {
    if (PRINTABLE.test(char)) {
      flush();
      out += char === '&' ? '&-' : char;
    } else {
      pending += char;
    }
  }
  flush();
  return out;
}

/** Refuses what RFC 3501 section 5.1.3 forbids: 8-bit, bad base64, encoded printable ASCII. */
export function decodeMailboxName(wire: string): string {
  let out = '';
  for (let at = 0; at < wire.length; ) {
    const char = wire[at]!;
    if (!PRINTABLE.test(char)) throw new ImapSyntaxError('mailbox name is not modified UTF-7');
    if (char !== '&') {
      out += char;
      at++;
      continue;
    }
    const end = wire.indexOf('-', at + 1);
    if (end < 0) throw new ImapSyntaxError('unterminated "&" in mailbox name');
    out += end === at + 1 ? '&' : decodeShifted(wire.slice(at + 1, end));
    at = end + 1;
  }
  return out;
}

function decodeShifted(encoded: string): string {
  // whole UTF-16 units only: 16 bits are 8/3 base64 digits, so a length of 1, 4 or 7 (mod 8) is cut
  if (!/^[A-Za-z0-9+,]+$/.test(encoded) || [1, 4, 7].includes(encoded.length % 8)) {
    throw new ImapSyntaxError('bad base64 in mailbox name');
  }
  const bytes = Buffer.from(encoded.replaceAll(',', '/'), 'base64');
  if (
    bytes.length % 2 !== 0 ||
    Buffer.from(bytes).toString('base64').replace(/=+$/, '') !== encoded.replaceAll(',', '/')
  ) {
    throw new ImapSyntaxError('bad base64 in mailbox name');
  }
  const text = Buffer.from(bytes).swap16().toString('utf16le');
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code >= 0x20 && code <= 0x7e) throw new ImapSyntaxError('printable ASCII encoded in mailbox name');
    if (code >= 0xd800 && code <= 0xdfff) throw new ImapSyntaxError('unpaired surrogate in mailbox name');
  }
  return text;
}
