import {
  base64ToBytes,
  cleanDecryptedText,
  DEFAULT_PERMISSION_KEY,
  permissionKeyBytes,
} from '@youju/contract';
import { env } from '../config/env';

const BLOCK = 16;

/**
 * AES-CBC with zero padding (the permission payload cipher, see the contract's permission-cipher.ts)
 * through the browser's WebCrypto: native code, and off the page's main thread. WebCrypto only
 * decrypts PKCS#7-padded data, so one block is appended that decrypts to a whole block of padding
 * (16 × 0x10): encrypting nothing with the last ciphertext block as IV yields E(last ⊕ 0x10…), and
 * CBC decrypts that block to exactly 0x10… (RFC 5652 section 6.3 for the padding rule).
 */
export async function decryptWithWebCrypto(
  subtle: SubtleCrypto,
  payload: string,
  key: string,
): Promise<string> {
  const bytes = base64ToBytes(payload);
  if (bytes.length < BLOCK * 2 || bytes.length % BLOCK !== 0) {
    throw new Error('permissionData is not a valid payload');
  }
  const cryptoKey = await subtle.importKey('raw', new Uint8Array(permissionKeyBytes(key)), 'AES-CBC', false, [
    'encrypt',
    'decrypt',
  ]);
  const ciphertext = bytes.slice(BLOCK);
  const paddingBlock = await subtle.encrypt(
    { name: 'AES-CBC', iv: ciphertext.slice(-BLOCK) },
    cryptoKey,
    new Uint8Array(0),
  );
  const padded = new Uint8Array(ciphertext.length + BLOCK);
  padded.set(ciphertext);
  padded.set(new Uint8Array(paddingBlock), ciphertext.length);
  const plain = new Uint8Array(
    await subtle.decrypt({ name: 'AES-CBC', iv: bytes.slice(0, BLOCK) }, cryptoKey, padded),
  );
  let end = plain.length;
  while (end > 0 && plain[end - 1] === 0) end--;
  return new TextDecoder().decode(plain.subarray(0, end));
}

/**
 * getVar's permissionData as the text to store: decrypted (AES-CBC with zero padding, the key built
 * in at build time) and cleaned. WebCrypto does the work where the page has it (a secure context:
 * HTTPS or localhost); elsewhere the contract's JavaScript AES, loaded only then: it builds its lookup
 * tables when it loads, some hundred milliseconds of a phone's main thread.
 */
export async function decryptPermissionText(payload: string): Promise<string> {
  const key = env.permissionKey ?? DEFAULT_PERMISSION_KEY;
  const subtle = globalThis.crypto?.subtle;
  const text = subtle
    ? await decryptWithWebCrypto(subtle, payload, key)
    : (await import('./permission-cipher-fallback')).decryptInJavaScript(payload, key);
  return cleanDecryptedText(text);
}
