import { create } from 'zustand';
import { readStoredObject, removeStoredItem, writeStoredObject } from './local-storage';

/**
 * The credential of the one-click temporary mailbox just created here. The server returns it once
 * (regEmail `credential`); it lives only in memory, never in storage. What storage keeps is
 * whether the visitor has saved it yet (copied or downloaded), under `credentialUnsaved_`, so that
 * logout still asks after a reload. The key is the web's own: the seed spec's keys stay as they are.
 */
const UNSAVED_KEY = 'credentialUnsaved_';

interface CredentialState {
  email: string | null;
  credential: string | null;
  /** the dialog showing it is open */
  open: boolean;
  /** the address whose credential was shown and not yet copied or downloaded */
  unsavedEmail: string | null;
}

function readUnsaved(): string | null {
  const value = readStoredObject(UNSAVED_KEY).email;
  return typeof value === 'string' ? value : null;
}

export const useCredentialStore = create<CredentialState>()(() => ({
  email: null,
  credential: null,
  open: false,
  unsavedEmail: readUnsaved(),
}));

/** A new temporary mailbox: show its credential, and remember it is not saved yet. */
export function rememberCredential(email: string, credential: string): void {
  writeStoredObject(UNSAVED_KEY, { email });
  useCredentialStore.setState({ email, credential, open: true, unsavedEmail: email });
}

/** Copied or downloaded: logout no longer asks. */
export function markCredentialSaved(): void {
  removeStoredItem(UNSAVED_KEY);
  useCredentialStore.setState({ unsavedEmail: null });
}

export function setCredentialDialogOpen(open: boolean): void {
  useCredentialStore.setState({ open });
}

/** Logged out or another account: the credential goes from memory and the flag from storage. */
export function forgetCredential(): void {
  removeStoredItem(UNSAVED_KEY);
  useCredentialStore.setState({ email: null, credential: null, open: false, unsavedEmail: null });
}
