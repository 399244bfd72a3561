import { cleanDecryptedText, DEFAULT_PERMISSION_KEY, decryptPermissionData } from '@youju/contract';
import { env } from '../config/env';

/**
 * getVar's permissionData as the text to store: decrypted (AES-CBC with zero padding, the key built
 * in at build time) and cleaned. A module of its own, loaded when the first answer arrives: the
 * cipher builds its lookup tables when it loads, work the first paint of a page should not wait for.
 */
export function decryptPermissionText(payload: string): string {
  return cleanDecryptedText(decryptPermissionData(payload, env.permissionKey ?? DEFAULT_PERMISSION_KEY));
}
