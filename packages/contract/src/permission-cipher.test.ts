import { createCipheriv, createDecipheriv } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  cleanDecryptedText,
  DEFAULT_PERMISSION_KEY,
  decryptPermissionData,
  encryptPermissionData,
} from './permission-cipher.js';

/** An independent implementation: Node's OpenSSL AES-CBC with padding off, zero padding by hand. */
function nodeEncrypt(plaintext: string, key: string, iv: Buffer): string {
  const data = Buffer.from(plaintext, 'utf8');
  const padded = Buffer.alloc(Math.ceil(data.length / 16) * 16);
  data.copy(padded);
  const algorithm = `aes-${Buffer.byteLength(key) * 8}-cbc`;
  const cipher = createCipheriv(algorithm, Buffer.from(key, 'utf8'), iv).setAutoPadding(false);
  return Buffer.concat([iv, cipher.update(padded), cipher.final()]).toString('base64');
}

function nodeDecrypt(payload: string, key: string): string {
  const bytes = Buffer.from(payload, 'base64');
  const algorithm = `aes-${Buffer.byteLength(key) * 8}-cbc`;
  const decipher = createDecipheriv(
    algorithm,
    Buffer.from(key, 'utf8'),
    bytes.subarray(0, 16),
  ).setAutoPadding(false);
  const plain = Buffer.concat([decipher.update(bytes.subarray(16)), decipher.final()]);
  return plain.toString('utf8').replace(/\0+$/, '');
}

const sample = JSON.stringify({ role: 'admin', permissions: ['menu:inbox', 'waf:manage'], name: '管理员' });

describe('permission cipher', () => {
  it('round-trips its own output', () => {
    expect(
      decryptPermissionData(encryptPermissionData(sample, DEFAULT_PERMISSION_KEY), DEFAULT_PERMISSION_KEY),
    ).toBe(sample);
  });

  it('matches a vector produced by Node crypto with padding off', () => {
    const iv = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex');
    const expected = nodeEncrypt(sample, DEFAULT_PERMISSION_KEY, iv);
    expect(encryptPermissionData(sample, DEFAULT_PERMISSION_KEY, new Uint8Array(iv))).toBe(expected);
    expect(decryptPermissionData(expected, DEFAULT_PERMISSION_KEY)).toBe(sample);
  });

  it('is readable by Node crypto, for 128, 192 and 256-bit keys', () => {
    for (const key of ['0123456789abcdef', '0123456789abcdef01234567', '0123456789abcdef0123456789abcdef']) {
      expect(nodeDecrypt(encryptPermissionData(sample, key), key)).toBe(sample);
    }
  });

  it('fixes the vector for the default key', () => {
    const iv = new Uint8Array(16).fill(7);
    // Computed once with `openssl enc -aes-128-cbc -nopad` over the zero-padded text.
    expect(encryptPermissionData('{"role":"anonymous","permissions":[]}', DEFAULT_PERMISSION_KEY, iv)).toBe(
      'BwcHBwcHBwcHBwcHBwcHB1Iy0H8Joq1Kbvv4UGUkcsxll/Z4JmO/83QYZ3EVfuiZRfSwwxkfnzYk6zbooDLjqg==',
    );
  });

  it('uses a fresh IV each time', () => {
    expect(encryptPermissionData(sample, DEFAULT_PERMISSION_KEY)).not.toBe(
      encryptPermissionData(sample, DEFAULT_PERMISSION_KEY),
    );
  });

  it('refuses keys of the wrong length and broken payloads', () => {
    expect(() => encryptPermissionData(sample, 'short')).toThrow();
    expect(() => decryptPermissionData('AAAA', DEFAULT_PERMISSION_KEY)).toThrow();
  });

  it('strips control characters and line or paragraph separators, then trims', () => {
    expect(cleanDecryptedText(' \u0002{"a":1}\u2028\u2029\n\u0000 ')).toBe('{"a":1}');
  });
});
