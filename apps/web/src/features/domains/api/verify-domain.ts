import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Domain } from '@youju/contract';
import { apiPost } from '../../../lib/http';
import { domainKeys } from './domain-keys';

/**
 * POST /api/user/verifyDomain: a pending domain turns active when its `_youju` TXT record holds the
 * value; otherwise the server says (409) what it found.
 */
export function verifyDomain(id: number): Promise<Domain> {
  return apiPost<Domain>('/user/verifyDomain', { id });
}

export function useVerifyDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyDomain,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: domainKeys.list() });
    },
  });
}
