import { type PermissionData, StorageKeys } from '@youju/contract';
import { create } from 'zustand';
import { parseObject, readStoredObject, type StoredObject, writeStoredObject } from './local-storage';

/** The decrypted permission payload as the client keeps it: parsed JSON, `{}` when nothing usable arrived. */
export type PermissionSnapshot = Partial<PermissionData> & StoredObject;

interface PermissionState {
  permissionData: PermissionSnapshot;
  /** Takes the decrypted, cleaned JSON text of getVar's permissionData. */
  setPermissionText: (text: string) => void;
}

/**
 * Permission store: getVar's decrypted permissionData, an object parsed from JSON, mirrored in local
 * storage under `permission_`. If parsing fails it falls back to `{}`.
 */
export const usePermissionStore = create<PermissionState>()((set) => ({
  permissionData: readStoredObject(StorageKeys.permission),
  setPermissionText: (text) => {
    const permissionData = parseObject(text);
    set({ permissionData });
    writeStoredObject(StorageKeys.permission, permissionData);
  },
}));

/** The permission strings of the current caller (`[]` when the payload has none). */
export function permissionsOf(data: PermissionSnapshot): string[] {
  const { permissions } = data;
  return Array.isArray(permissions)
    ? permissions.filter((item): item is string => typeof item === 'string')
    : [];
}

export function usePermissions(): string[] {
  const permissionData = usePermissionStore((state) => state.permissionData);
  return permissionsOf(permissionData);
}
