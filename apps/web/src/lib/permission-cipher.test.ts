import { webcrypto } from 'node:crypto';
import { DEFAULT_PERMISSION_KEY, decryptPermissionData, encryptPermissionData } from '@youju/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decryptPermissionText, decryptWithWebCrypto } from './permission-cipher';

// Node's WebCrypto is the same API as the browser's (jsdom has none, so the page's path is tested here).
const subtle = webcrypto.subtle as SubtleCrypto;

describe('permission payload cipher through WebCrypto', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('decrypts what the contract encrypts, for every block boundary and key length', async () => {
    // 16, 24 and 32 bytes (the last one four three-byte characters and 20 ASCII ones).
    for (const key of [DEFAULT_PERMISSION_KEY, 'k'.repeat(24), '权限密钥-with-a-32-byte-key!']) {
      expect([16, 24, 32]).toContain(new TextEncoder().encode(key).length);
      for (const length of [1, 15, 16, 17, 31, 32, 33, 100]) {
        const plaintext = JSON.stringify({ role: 'admin', name: '管'.repeat(length) }).slice(0, length + 2);
        const payload = encryptPermissionData(plaintext, key);
        await expect(decryptWithWebCrypto(subtle, payload, key)).resolves.toBe(
          decryptPermissionData(payload, key),
        );
      }
    }
  });

  it('refuses a payload that is not an IV and whole blocks, as the JavaScript cipher does', async () => {
    const short = btoa('x'.repeat(16));
    const ragged = btoa('x'.repeat(40));
    await expect(decryptWithWebCrypto(subtle, short, DEFAULT_PERMISSION_KEY)).rejects.toThrow();
    await expect(decryptWithWebCrypto(subtle, ragged, DEFAULT_PERMISSION_KEY)).rejects.toThrow();
  });

  it('decrypts and cleans with WebCrypto, and with the JavaScript cipher where the page has none', async () => {
    const payload = encryptPermissionData(' \u0000{"role":"mailbox"}\u2028 ', DEFAULT_PERMISSION_KEY);
    vi.stubGlobal('crypto', { subtle: webcrypto.subtle });
    await expect(decryptPermissionText(payload)).resolves.toBe('{"role":"mailbox"}');
    vi.stubGlobal('crypto', {});
    await expect(decryptPermissionText(payload)).resolves.toBe('{"role":"mailbox"}');
  });
});
