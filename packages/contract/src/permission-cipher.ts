import { cbc } from '@noble/ciphers/aes.js';

/**
 * The cipher of getVar's `permissionData`, as the web client has always decrypted it (binding: server
 * and client must agree byte for byte): AES in CBC mode with zero padding (no PKCS#7), the key being
 * `PERMISSION_KEY` (16, 24 or 32 bytes); the base64 payload is the IV (its first 16 bytes) followed
 * by the ciphertext; the plaintext is the JSON of `PermissionData`. The key ships inside the web
 * client: this is obfuscation, never a security boundary.
 */

export const DEFAULT_PERMISSION_KEY = 'youju-permission';
const BLOCK = 16;

/** Turns a configured key (16, 24 or 32 characters of UTF-8) into AES key bytes. */
export function permissionKeyBytes(key: string): Uint8Array {
  const bytes = new TextEncoder().encode(key);
  if (![16, 24, 32].includes(bytes.length)) {
    throw new Error('PERMISSION_KEY 必须是 16、24 或 32 字节');
  }
  return bytes;
}

function zeroPad(data: Uint8Array): Uint8Array {
  const length = Math.ceil(Math.max(data.length, 1) / BLOCK) * BLOCK;
  const padded = new Uint8Array(length);
  padded.set(data);
  return padded;
}

function stripZeroPadding(data: Uint8Array): Uint8Array {
  let end = data.length;
  while (end > 0 && data[end - 1] === 0) end--;
  return data.subarray(0, end);
}

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function encryptPermissionData(plaintext: string, key: string, iv?: Uint8Array): string {
  const initVector = iv ?? crypto.getRandomValues(new Uint8Array(BLOCK));
  if (initVector.length !== BLOCK) throw new Error('IV must be 16 bytes');
  const cipher = cbc(permissionKeyBytes(key), initVector, { disablePadding: true });
  const sealed = cipher.encrypt(zeroPad(new TextEncoder().encode(plaintext)));
  const payload = new Uint8Array(BLOCK + sealed.length);
  payload.set(initVector);
  payload.set(sealed, BLOCK);
  return bytesToBase64(payload);
}

/** Decrypts to the raw plaintext; the caller cleans it with `cleanDecryptedText`. */
export function decryptPermissionData(payload: string, key: string): string {
  const bytes = base64ToBytes(payload);
  if (bytes.length < BLOCK * 2 || bytes.length % BLOCK !== 0) {
    throw new Error('permissionData is not a valid payload');
  }
  const cipher = cbc(permissionKeyBytes(key), bytes.subarray(0, BLOCK), { disablePadding: true });
  return new TextDecoder().decode(stripZeroPadding(cipher.decrypt(bytes.subarray(BLOCK))));
}

/**
 * What the web client does with the decrypted text before parsing it: strips control characters
 * and line or paragraph separators (U+2028, U+2029), then trims it.
 */
export function cleanDecryptedText(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '').trim();
}
