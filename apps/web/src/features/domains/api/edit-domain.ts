import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Domain, EditDomainBody } from '@youju/contract';
import { callApi } from '../../../lib/api-error';
import { domainKeys } from './get-domains';

/** POST /api/user/editDomain: only the fields present change. */
export function editDomain(body: EditDomainBody): Promise<Domain> {
  return callApi<Domain>({ method: 'POST', url: '/user/editDomain', data: body });
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
