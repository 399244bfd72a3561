import { createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import type { DkimAlgorithm, DnsRecord } from '@youju/contract';

export interface GeneratedDkimKey {
  algorithm: DkimAlgorithm;
  /** PKCS#8 PEM */
  privateKey: string;
  /** SPKI PEM */
  publicKey: string;
}

/**
 * A new key pair, generated off the event loop (an RSA 2048 key takes tens to hundreds of
 * milliseconds). RSA 2048 is what RFC 8301 section 3.2 asks signers for; ed25519 is RFC 8463.
 */
export function generateDkimKey(algorithm: DkimAlgorithm = 'rsa'): Promise<GeneratedDkimKey> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, publicKey: string, privateKey: string) => {
      if (error) reject(error);
      else resolve({ algorithm, privateKey, publicKey });
    };
    const encoding = {
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    } as const;
    if (algorithm === 'ed25519') generateKeyPair('ed25519', encoding, done);
    else generateKeyPair('rsa', { modulusLength: 2048, ...encoding }, done);
  });
}

/**
 * The `p=` value of the key record (RFC 6376 section 3.6.1): base64 of the DER SubjectPublicKeyInfo
 * for RSA; for ed25519 only the raw 32-byte public key (RFC 8463 section 4.2).
 */
export function dkimPublicKeyData(publicKeyPem: string): string {
  const key: KeyObject = createPublicKey(publicKeyPem);
  if (key.asymmetricKeyType === 'ed25519') {
    const jwk = key.export({ format: 'jwk' });
    return Buffer.from(String(jwk.x), 'base64url').toString('base64');
  }
  return key.export({ type: 'spki', format: 'der' }).toString('base64');
}

export function dkimRecordName(selector: string, domain: string): string {
  return `${selector}._domainkey.${domain}`;
}

/** The TXT record to publish for a key (RFC 6376 section 3.6.1 tags v, k, p). */
export function dkimRecord(
  selector: string,
  domain: string,
  algorithm: DkimAlgorithm,
  publicKeyPem: string,
): DnsRecord {
  return {
    name: dkimRecordName(selector, domain),
    type: 'TXT',
    value: `v=DKIM1; k=${algorithm}; p=${dkimPublicKeyData(publicKeyPem)}`,
  };
}

/**
 * A selector named after the month the key was made (`yj202506`, `yj202506e` for ed25519), with a
 * counter when that name is taken, so a rotation never reuses a published selector.
 */
export function nextSelector(algorithm: DkimAlgorithm, taken: readonly string[], now = new Date()): string {
  const month = `${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  const base = `yj${month}${algorithm === 'ed25519' ? 'e' : ''}`;
  if (!taken.includes(base)) return base;
  for (let counter = 2; ; counter += 1) {
    const candidate = `${base}-${counter}`;
    if (!taken.includes(candidate)) return candidate;
  }
}

/** Splits a DKIM TXT record into its tags (RFC 6376 section 3.2: `tag=value; …`, whitespace folded). */
export function parseTagList(text: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of text.split(';')) {
    const index = part.indexOf('=');
    if (index <= 0) continue;
    const name = part.slice(0, index).trim().toLowerCase();
    if (!tags.has(name))
      tags.set(
        name,
        part
          .slice(index + 1)
          .replace(/\s+/g, '')
          .trim(),
      );
  }
  return tags;
}
