/** Local-storage keys of the web client (seed section 3). */
export const StorageKeys = {
  token: 'token',
  /** permission store, mirrored under a key ending in an underscore */
  permission: 'permission_',
  /** settings store */
  settings: 'settings_',
} as const;
