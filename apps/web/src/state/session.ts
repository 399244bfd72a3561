import { StorageKeys } from '@youju/contract';
import { create } from 'zustand';
import { readStoredText, removeStoredItem, writeStoredText } from './local-storage';

/**
 * The login token, kept in local storage under the key `token`. Local storage is the source of truth,
 * so that the HTTP client, the route guards and other tabs agree; the store only makes the interface
 * re-render when this tab logs in or out.
 */
interface SessionState {
  token: string | null;
}

export const useSessionStore = create<SessionState>()(() => ({ token: readToken() }));

export function readToken(): string | null {
  return readStoredText(StorageKeys.token) || null;
}

export function hasToken(): boolean {
  return readToken() !== null;
}

export function saveToken(token: string): void {
  writeStoredText(StorageKeys.token, token);
  useSessionStore.setState({ token });
}

export function clearToken(): void {
  removeStoredItem(StorageKeys.token);
  useSessionStore.setState({ token: null });
}
