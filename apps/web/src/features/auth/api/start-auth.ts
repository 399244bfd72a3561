import { useMutation } from '@tanstack/react-query';
import type { StartAuthBody, StartAuthData } from '@youju/contract';
import { callApi } from '../../../lib/api-error';

/** POST /api/startAuth: first-run set-up of the first administrator, guarded by the set-up token. */
export function startAuth(body: StartAuthBody): Promise<StartAuthData> {
  return callApi<StartAuthData>({ method: 'POST', url: '/startAuth', data: body });
}

export function useStartAuth(onSuccess: (data: StartAuthData) => Promise<void> | void) {
  return useMutation({ mutationFn: startAuth, onSuccess });
}
