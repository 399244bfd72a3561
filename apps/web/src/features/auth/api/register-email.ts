import { useMutation } from '@tanstack/react-query';
import type { RegEmailBody, RegEmailData } from '@youju/contract';
import { apiPost } from '../../../lib/http';

/** POST /api/regEmail: register a mailbox on an open domain; without a password it is temporary. */
export function registerEmail(body: RegEmailBody): Promise<RegEmailData> {
  return apiPost<RegEmailData>('/regEmail', body);
}

export function useRegisterEmail(onSuccess: (data: RegEmailData) => Promise<void> | void) {
  return useMutation({ mutationFn: registerEmail, onSuccess });
}
