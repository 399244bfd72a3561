/**
 * Local-storage keys the web client has always used (binding: changing them logs every user out and
 * drops the stored permissions and settings).
 */
export const StorageKeys = {
  token: 'token',
  /** permission store, mirrored under a key ending in an underscore */
  permission: 'permission_',
  /** settings store */
  settings: 'settings_',
} as const;
