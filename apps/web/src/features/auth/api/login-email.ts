import { useMutation } from '@tanstack/react-query';
import type { LoginEmailBody, LoginEmailData } from '@youju/contract';
import { apiPost } from '../../../lib/http';

/** POST /api/loginEmail: mailbox login with address and password. */
export function loginEmail(body: LoginEmailBody): Promise<LoginEmailData> {
  return apiPost<LoginEmailData>('/loginEmail', body);
}

export function useLoginEmail(onSuccess: (data: LoginEmailData) => Promise<void> | void) {
  return useMutation({ mutationFn: loginEmail, onSuccess });
}
