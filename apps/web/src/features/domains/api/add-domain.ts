import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AddDomainBody, Domain } from '@youju/contract';
import { apiPost } from '../../../lib/http';
import { domainKeys } from './domain-keys';

/** POST /api/user/addDomain: the server normalises the name (IDN to punycode) and makes a DKIM key. */
export function addDomain(body: AddDomainBody): Promise<Domain> {
  return apiPost<Domain>('/user/addDomain', body);
}

export function useAddDomain(onSuccess?: (domain: Domain) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addDomain,
    onSuccess: async (domain) => {
      await queryClient.invalidateQueries({ queryKey: domainKeys.all });
      onSuccess?.(domain);
    },
  });
}
