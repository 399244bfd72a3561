import { DefaultMessage, ErrorCode, LOGIN_URL } from '@youju/contract';
import { type LoaderFunction, redirect } from 'react-router-dom';
import { allowedUserScreens, paths, type RouteEntry, userScreens } from '../config/routes';
import { showErrorMessage } from '../lib/feedback';
import { variablesSettled } from '../lib/variables';
import { permissionsOf, usePermissionStore } from '../state/permission';
import { clearToken, hasToken } from '../state/session';

/**
 * A route that needs a login sends a visitor without a stored token to /auth. Every
 * registered route runs this before it renders, which is also what makes each navigation pass through
 * the router's loading state that drives the progress bar.
 */
export function guardRoute(entry: RouteEntry): LoaderFunction {
  return () => (entry.requiresLogin && !hasToken() ? redirect(paths.auth) : null);
}

/**
 * Entry to /user. Besides the token check it waits for the current variables call: when the server
 * answered for an anonymous caller although a token is stored, that token is no longer valid, which
 * is the same situation as a 302 answer, so the client reacts the same way.
 */
export const requireSession: LoaderFunction = async () => {
  if (!hasToken()) return redirect(paths.auth);
  const outcome = await variablesSettled();
  const { role } = usePermissionStore.getState().permissionData;
  if (outcome === 'applied' && hasToken() && role === 'anonymous') {
    clearToken();
    showErrorMessage(DefaultMessage[ErrorCode.notLoggedIn]);
    return redirect(LOGIN_URL);
  }
  return null;
};

/** /user lands on the inbox, or on the first screen the caller may see when the inbox is not among them. */
export const landOnFirstScreen: LoaderFunction = async () => {
  await variablesSettled();
  const allowed = allowedUserScreens(permissionsOf(usePermissionStore.getState().permissionData));
  const target = allowed.find((entry) => entry.screen === 'inbox') ?? allowed[0] ?? userScreens[0];
  return redirect(target?.path ?? paths.home);
};
