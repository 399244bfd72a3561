import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Domain, EditDomainBody } from '@youju/contract';
import { apiPost } from '../../../lib/http';
import { domainKeys } from './domain-keys';

/** POST /api/user/editDomain: only the fields present change. */
export function editDomain(body: EditDomainBody): Promise<Domain> {
  return apiPost<Domain>('/user/editDomain', body);
}

export function useEditDomain(onSuccess?: (domain: Domain) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: editDomain,
    onSuccess: async (domain) => {
      await queryClient.invalidateQueries({ queryKey: domainKeys.all });
      onSuccess?.(domain);
    },
  });
}
