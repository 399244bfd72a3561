import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DelDomainBody } from '@youju/contract';
import { apiPost } from '../../../lib/http';
import { domainKeys } from './domain-keys';

/** POST /api/user/delDomain: refused (409) while mailboxes exist unless `force`. */
export function deleteDomain(body: DelDomainBody): Promise<unknown> {
  return apiPost('/user/delDomain', body);
}

export function useDeleteDomain(onSuccess?: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDomain,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: domainKeys.all });
      onSuccess?.();
    },
  });
}
