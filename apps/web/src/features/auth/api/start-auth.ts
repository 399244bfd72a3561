import { useMutation } from '@tanstack/react-query';
import type { StartAuthBody, StartAuthData } from '@youju/contract';
import { apiPost } from '../../../lib/http';

/** POST /api/startAuth: first-run set-up of the first administrator, guarded by the set-up token. */
export function startAuth(body: StartAuthBody): Promise<StartAuthData> {
  return apiPost<StartAuthData>('/startAuth', body);
}

export function useStartAuth(onSuccess: (data: StartAuthData) => Promise<void> | void) {
  return useMutation({ mutationFn: startAuth, onSuccess });
}
