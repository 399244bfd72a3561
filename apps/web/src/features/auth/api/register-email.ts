import { useMutation } from '@tanstack/react-query';
import type { RegEmailBody, RegEmailData } from '@youju/contract';
import { callApi } from '../../../lib/api-error';

/** POST /api/regEmail: register a mailbox on an open domain; without a password it is temporary. */
export function registerEmail(body: RegEmailBody): Promise<RegEmailData> {
  return callApi<RegEmailData>({ method: 'POST', url: '/regEmail', data: body });
}

export function useRegisterEmail(onSuccess: (data: RegEmailData) => Promise<void> | void) {
  return useMutation({ mutationFn: registerEmail, onSuccess });
}
