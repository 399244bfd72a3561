import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The Sender Rewriting Scheme (Shevek, "Sender Rewriting Scheme", 2004; libsrs2 and Mail::SRS), its
 * SRS0 form: a forwarder replaces the envelope sender of a message it passes on with an address on
 * its own domain, so that the next hop's SPF check (RFC 7208 section 2.4: the MAIL FROM domain)
 * sees the forwarder, and a bounce still finds its way back to the original sender:
 *
 *     SRS0=HHHHHHHH=TT=orig-domain=orig-local@forwarding-domain
 *
 * TT is the day of rewriting (days since the Unix epoch, mod 1024) in two base32 characters; HHH…
 * a truncated base32 HMAC-SHA1 of TT, the original domain and local part under the forwarder's
 * secret, so that nobody can make up SRS0 addresses that we would relay bounces to (an open
 * relay), and an address expires after `maxAgeDays`. Base32 (RFC 4648 section 6 alphabet) is used
 * for both because it survives MTAs that fold the case of the local part; the hash is checked
 * case-insensitively for the same reason, and covers the original address lowercased.
 *
 * Not implemented: SRS1 (re-forwarding an SRS0 address of another forwarder in a shorter form);
 * such a sender is simply rewritten again as SRS0. The local part may then exceed RFC 5321's 64
 * octets (section 4.5.3.1.1), as it often does with SRS; in practice MTAs accept it.
 */

/** RFC 4648 section 6: the base32 alphabet (Mail::SRS uses the same for the timestamp). */
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** Days are counted mod 2^10: two base32 characters. */
const TIMESTAMP_PRECISION = 1024;
const DAY_MS = 86_400_000;
/** 8 base32 characters: 40 bits of HMAC (libsrs2's default 4 base64 ones give only 24). */
export const SRS_HASH_LENGTH = 8;
/** libsrs2's default: a bounce may come back up to 21 days after the message was forwarded. */
export const SRS_MAX_AGE_DAYS = 21;

export interface SrsAddress {
  /** the original envelope sender's local part, as it was */
  local: string;
  /** the original envelope sender's domain */
  domain: string;
}

export class SrsError extends Error {
  constructor(
    readonly reason: 'not-srs' | 'syntax' | 'hash' | 'expired',
    message: string,
  ) {
    super(message);
  }
}

function dayOf(nowMs: number): number {
  return Math.floor(nowMs / DAY_MS) % TIMESTAMP_PRECISION;
}

function encodeTimestamp(day: number): string {
  return `${BASE32[(day >> 5) & 31]}${BASE32[day & 31]}`;
}

function decodeTimestamp(text: string): number | null {
  if (text.length !== 2) return null;
  const high = BASE32.indexOf(text[0]?.toUpperCase() ?? '');
  const low = BASE32.indexOf(text[1]?.toUpperCase() ?? '');
  if (high < 0 || low < 0) return null;
  return (high << 5) | low;
}

function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

function hashOf(secret: string | Buffer, timestamp: string, domain: string, local: string): string {
  // The parts are joined with a separator that can occur in none of them at its place (a domain has
  // no NUL), so that ("ab", "c") and ("a", "bc") do not hash alike.
  const data = `${timestamp.toUpperCase()}\0${domain.toLowerCase()}\0${local.toLowerCase()}`;
  return base32(createHmac('sha1', secret).update(data, 'utf8').digest()).slice(0, SRS_HASH_LENGTH);
}

/** True when `local` is an SRS0 local part (any case, `=`, `+` or `-` after the tag, as libsrs2 reads). */
export function isSrs0LocalPart(local: string): boolean {
  return /^srs0[=+-]/i.test(local);
}

/**
 * Rewrites `original` (local@domain) as an SRS0 address on `forwardingDomain`. `original` must
 * have an `@` with a non-empty domain; the empty sender of a bounce is never rewritten (the caller
 * does not forward bounces at all).
 */
export function srsForward(
  original: string,
  forwardingDomain: string,
  secret: string | Buffer,
  nowMs: number = Date.now(),
): string {
  const at = original.lastIndexOf('@');
  if (at <= 0 || at === original.length - 1) {
    throw new SrsError('syntax', 'the original sender is not local@domain');
  }
  const local = original.slice(0, at);
  const domain = original.slice(at + 1);
  const timestamp = encodeTimestamp(dayOf(nowMs));
  const hash = hashOf(secret, timestamp, domain, local);
  return `SRS0=${hash}=${timestamp}=${domain}=${local}@${forwardingDomain}`;
}

/**
 * Reads an SRS0 local part back into the original sender, checking its hash (constant time) and
 * age. Throws SrsError: `not-srs` for an ordinary local part, `syntax`, `hash` (forged or another
 * forwarder's secret), `expired` (older than `maxAgeDays`, or a timestamp from the future).
 */
export function srsReverse(
  localPart: string,
  secret: string | Buffer,
  nowMs: number = Date.now(),
  maxAgeDays: number = SRS_MAX_AGE_DAYS,
): SrsAddress {
  if (!isSrs0LocalPart(localPart)) throw new SrsError('not-srs', 'not an SRS0 address');
  const rest = localPart.slice(5);
  // hash = TT = domain = local; the original local part may itself contain '='.
  const parts = rest.split('=');
  if (parts.length < 4) throw new SrsError('syntax', 'SRS0 address has too few parts');
  const [hash = '', timestamp = '', domain = ''] = parts;
  const local = parts.slice(3).join('=');
  if (!hash || !domain || !local) throw new SrsError('syntax', 'SRS0 address has an empty part');
  const day = decodeTimestamp(timestamp);
  if (day === null) throw new SrsError('syntax', 'SRS0 timestamp is not two base32 characters');
  const expected = Buffer.from(hashOf(secret, timestamp, domain, local), 'ascii');
  const given = Buffer.from(hash.toUpperCase(), 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new SrsError('hash', 'SRS0 hash does not match');
  }
  // The age mod 1024 days: a timestamp up to maxAgeDays old is valid, anything else (older, or
  // "from the future") is not (libsrs2 srs_timestamp_check).
  const age = (dayOf(nowMs) - day + TIMESTAMP_PRECISION) % TIMESTAMP_PRECISION;
  if (age > maxAgeDays) throw new SrsError('expired', 'SRS0 address has expired');
  return { local, domain };
}
