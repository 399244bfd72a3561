import { useMutation } from '@tanstack/react-query';
import type { LoginBody, LoginData } from '@youju/contract';
import { apiPost } from '../../../lib/http';

/** POST /api/login: system account login. */
export function login(body: LoginBody): Promise<LoginData> {
  return apiPost<LoginData>('/login', body);
}

export function useLogin(onSuccess: (data: LoginData) => Promise<void> | void) {
  return useMutation({ mutationFn: login, onSuccess });
}
