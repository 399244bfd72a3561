import { DEFAULT_PERMISSION_KEY } from '@youju/contract';

/**
 * Typed runtime configuration of the client. Values are fixed at build time; the test runner does not
 * apply Vite's `define`, so the permission key falls back to the contract's default there.
 */
export const env = {
  permissionKey: typeof __PERMISSION_KEY__ === 'string' ? __PERMISSION_KEY__ : DEFAULT_PERMISSION_KEY,
} as const;
