/**
 * Typed runtime configuration of the client. Values are fixed at build time; the test runner does not
 * apply Vite's `define`, so there the permission key is undefined and the cipher uses the contract's
 * default (lib/permission-cipher.ts: the cipher and its default stay out of the first script).
 */
export const env = {
  permissionKey: typeof __PERMISSION_KEY__ === 'string' ? __PERMISSION_KEY__ : undefined,
} as const;
