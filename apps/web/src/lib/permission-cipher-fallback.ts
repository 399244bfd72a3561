import { decryptPermissionData } from '@youju/contract';

/** The permission payload cipher in JavaScript, for pages without WebCrypto (plain HTTP off localhost). */
export function decryptInJavaScript(payload: string, key: string): string {
  return decryptPermissionData(payload, key);
}
