import { type PublicSettings, StorageKeys } from '@youju/contract';
import { create } from 'zustand';
import { isPlainObject, readStoredObject, type StoredObject, writeStoredObject } from './local-storage';

/** getVar's settings as received; fields may be missing when the server is older or newer. */
export type SettingsSnapshot = Partial<PublicSettings> & StoredObject;

interface SettingsState {
  settings: SettingsSnapshot;
  setSettings: (settings: unknown) => void;
}

/**
 * Settings store: getVar's settings kept as received, mirrored in local storage under
 * `settings_`. Anything that is not an object falls back to `{}`.
 */
export const useSettingsStore = create<SettingsState>()((set) => ({
  settings: readStoredObject(StorageKeys.settings),
  setSettings: (received) => {
    const settings: SettingsSnapshot = isPlainObject(received) ? received : {};
    set({ settings });
    writeStoredObject(StorageKeys.settings, settings);
  },
}));
