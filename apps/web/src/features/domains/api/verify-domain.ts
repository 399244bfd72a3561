import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Domain } from '@youju/contract';
import { callApi } from '../../../lib/api-error';
import { domainKeys } from './get-domains';

/**
 * POST /api/user/verifyDomain: a pending domain turns active when its `_youju` TXT record holds the
 * value; otherwise the server says (409) what it found.
 */
export function verifyDomain(id: number): Promise<Domain> {
  return callApi<Domain>({ method: 'POST', url: '/user/verifyDomain', data: { id } });
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
