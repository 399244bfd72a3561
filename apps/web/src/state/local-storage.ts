/**
 * Local-storage mirror of the client state stores. Reading and writing never throw: storage
 * may be full, disabled (private browsing) or hold text that another version wrote.
 */

export type StoredObject = Record<string, unknown>;

/** Parses JSON text into a plain object; anything else (bad JSON, arrays, null, numbers) becomes `{}`. */
export function parseObject(text: string | null | undefined): StoredObject {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : {};
  } catch {
    return {};
  }
}

export function isPlainObject(value: unknown): value is StoredObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readStoredObject(key: string): StoredObject {
  try {
    return parseObject(localStorage.getItem(key));
  } catch {
    return {};
  }
}

/**
 * Mirrors `value` under `key`. When storing fails the mirror falls back to the empty object: the stale
 * entry is removed so that the next start reads `{}` instead of an outdated copy, while the in-memory
 * store keeps the value it was given.
 */
export function writeStoredObject(key: string, value: StoredObject): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    removeStoredItem(key);
  }
}

export function readStoredText(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStoredText(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage refused the value (full or disabled); the session then lasts as long as the page.
  }
}

export function removeStoredItem(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // Nothing to undo when storage is unavailable.
  }
}
