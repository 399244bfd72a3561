import { useMutation } from '@tanstack/react-query';
import type { RegEmailData } from '@youju/contract';
import { apiPost } from '../../../lib/http';

/**
 * POST /api/regEmail with only a domain: the server picks a random name and, without a password, the
 * mailbox is temporary (reached by the returned token only).
 */
export function createTemporaryMailbox(domainId: number): Promise<RegEmailData> {
  return apiPost<RegEmailData>('/regEmail', { domainId });
}

export function useCreateTemporaryMailbox(onSuccess: (data: RegEmailData) => Promise<void> | void) {
  return useMutation({ mutationFn: createTemporaryMailbox, onSuccess });
}
