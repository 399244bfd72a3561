import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DelDomainBody } from '@youju/contract';
import { callApi } from '../../../lib/api-error';
import { domainKeys } from './get-domains';

/** POST /api/user/delDomain: refused (409) while mailboxes exist unless `force`. */
export function deleteDomain(body: DelDomainBody): Promise<unknown> {
  return callApi({ method: 'POST', url: '/user/delDomain', data: body });
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
