import { useMutation } from '@tanstack/react-query';
import { apiGet } from '../../../lib/http';

/** GET /api/user/logout: revokes the current token on the server. */
export function logout(): Promise<unknown> {
  return apiGet('/user/logout');
}

/**
 * The caller leaves whatever the server says (`onSettled`): a token the server no longer knows is as
 * good as revoked, so a failed logout is not shown.
 */
export function useLogout(onSettled: () => Promise<void> | void) {
  return useMutation({ mutationFn: logout, onSettled, meta: { silent: true } });
}
