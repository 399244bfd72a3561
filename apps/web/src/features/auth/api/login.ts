import { useMutation } from '@tanstack/react-query';
import type { LoginBody, LoginData } from '@youju/contract';
import { callApi } from '../../../lib/api-error';

/** POST /api/login: system account login. */
export function login(body: LoginBody): Promise<LoginData> {
  return callApi<LoginData>({ method: 'POST', url: '/login', data: body });
}

export function useLogin(onSuccess: (data: LoginData) => Promise<void> | void) {
  return useMutation({ mutationFn: login, onSuccess });
}
