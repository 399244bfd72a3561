import { useMutation } from '@tanstack/react-query';
import type { LoginEmailBody, LoginEmailData } from '@youju/contract';
import { callApi } from '../../../lib/api-error';

/** POST /api/loginEmail: mailbox login with address and password. */
export function loginEmail(body: LoginEmailBody): Promise<LoginEmailData> {
  return callApi<LoginEmailData>({ method: 'POST', url: '/loginEmail', data: body });
}

export function useLoginEmail(onSuccess: (data: LoginEmailData) => Promise<void> | void) {
  return useMutation({ mutationFn: loginEmail, onSuccess });
}
