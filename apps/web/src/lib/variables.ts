import type { Envelope, GetVarResponse } from '@youju/contract';
import { usePermissionStore } from '../state/permission';
import { useSettingsStore } from '../state/settings';
import { showErrorNotification } from './feedback';
import { requestEnvelope } from './http';

/** getVar is the one call whose payload stands at the top level of the envelope, beside error and msg. */
export type VariablesResponse = Envelope & Partial<Pick<GetVarResponse, 'permissionData' | 'settings'>>;

/** applied: stores updated · rejected: the server answered error ≠ 0 · failed: an exception (network, cipher) */
export type VariablesOutcome = 'applied' | 'rejected' | 'failed';

export function fetchVariables(): Promise<VariablesResponse> {
  return requestEnvelope({ method: 'GET', url: '/getVar' });
}

/**
 * permissionData is decrypted (the permission payload cipher: AES-CBC with zero padding, the key
 * built in at build time), stripped of control characters and line or paragraph separators, trimmed
 * and stored; settings are stored as received.
 */
function applyVariables(response: VariablesResponse, cipher: PermissionCipher): void {
  usePermissionStore
    .getState()
    .setPermissionText(cipher.decryptPermissionText(response.permissionData ?? ''));
  useSettingsStore.getState().setSettings(response.settings);
}

type PermissionCipher = typeof import('./permission-cipher');

/** The cipher's module, fetched while the call is under way (its failure counts as the call's). */
function loadCipher(): Promise<PermissionCipher> {
  const module = import('./permission-cipher');
  // Awaited only for an answer with error 0; until then a failure must not count as unhandled.
  module.catch(() => undefined);
  return module;
}

/** One variables call. Error ≠ 0 shows msg as an error notification; an exception is only logged. */
export async function loadVariables(): Promise<VariablesOutcome> {
  try {
    const cipher = loadCipher();
    const response = await fetchVariables();
    if (response.error !== 0) {
      showErrorNotification(response.msg);
      return 'rejected';
    }
    applyVariables(response, await cipher);
    return 'applied';
  } catch (error) {
    console.error('Reading the site variables failed', error);
    return 'failed';
  }
}

let startup: Promise<VariablesOutcome> | null = null;
let latest: Promise<VariablesOutcome> | null = null;

/** Re-reads the variables, e.g. after a login or logout so that menus match the new role. */
export function refreshVariables(): Promise<VariablesOutcome> {
  latest = loadVariables();
  return latest;
}

/** The start-up call: made once per page load, however often it is asked for. */
export function loadStartupVariables(): Promise<VariablesOutcome> {
  startup ??= refreshVariables();
  return startup;
}

/** Resolves when the most recent variables call has finished (starting the start-up call if needed). */
export function variablesSettled(): Promise<VariablesOutcome> {
  return latest ?? loadStartupVariables();
}
