import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Card codes: `YJ-XXXX-XXXX-XXXX-XXXX`, 16 characters of Crockford's base32 (no I, L, O, U, so
 * nothing is misread), each carrying 5 bits of `crypto.randomBytes`: 80 bits, far beyond guessing
 * even without the per-IP limit on wrong codes.
 *
 * Codes are kept as issued because the operator must see and export them; lookups go through the
 * SHA-256 of the normalised code (so the index reveals nothing through timing about which
 * characters matched) and the found code is then compared in constant time.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const PREFIX = 'YJ';
const BODY_LENGTH = 16;

export function newCardCode(): string {
  const bytes = randomBytes(10); // 80 bits = 16 × 5
  let bits = 0;
  let value = 0;
  let body = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      body += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  const groups = body.match(/.{4}/g) ?? [];
  return [PREFIX, ...groups].join('-');
}

/**
 * The 16 significant characters of a code as people type it: any case, with or without the prefix,
 * hyphens or spaces; O read as 0 and I or L as 1 (Crockford). Null when it cannot be a code.
 */
export function normalizeCardCode(input: string): string | null {
  let text = input.toUpperCase().replace(/[^0-9A-Z]/g, '');
  if (text.length === BODY_LENGTH + PREFIX.length && text.startsWith(PREFIX))
    text = text.slice(PREFIX.length);
  text = text.replace(/O/g, '0').replace(/[IL]/g, '1');
  if (text.length !== BODY_LENGTH) return null;
  for (const char of text) if (!ALPHABET.includes(char)) return null;
  return text;
}

export function cardCodeHash(normalized: string): string {
  return createHash('sha256').update(normalized).digest('hex');
}

/** Constant-time comparison of a stored code with what was typed (both normalised). */
export function sameCardCode(stored: string, typed: string): boolean {
  const a = Buffer.from(normalizeCardCode(stored) ?? '');
  const b = Buffer.from(typed);
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}
