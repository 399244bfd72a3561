import { createHash, randomBytes } from 'node:crypto';

/** A bearer token: 32 random bytes. Only its SHA-256 is stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const LOCAL_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** A random local part people can read aloud (no 0/o, 1/l). */
export function randomLocalPart(length = 10): string {
  const bytes = randomBytes(length);
  let result = '';
  for (const byte of bytes) result += LOCAL_ALPHABET[byte % LOCAL_ALPHABET.length];
  return result;
}

/**
 * The credential of a one-click temporary mailbox (its generated password): 20 characters of the
 * same read-aloud alphabet in groups of four, 100 random bits (32 divides 256, so no bias).
 */
export function newMailboxCredential(): string {
  const bytes = randomBytes(20);
  let result = '';
  for (const [index, byte] of bytes.entries()) {
    if (index > 0 && index % 4 === 0) result += '-';
    result += LOCAL_ALPHABET[byte % LOCAL_ALPHABET.length];
  }
  return result;
}
