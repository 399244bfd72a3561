import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OpenDomain, VerCardBody, VerCardData } from '@youju/contract';
import { callApi } from '../../../lib/api-error';
import { storeKeys } from './check-address';

/** POST /api/verCard: redeem a code for a new mailbox or to extend one. */
export function redeemCard(body: VerCardBody): Promise<VerCardData> {
  return callApi<VerCardData>({ method: 'POST', url: '/verCard', data: body });
}

export function useRedeemCard(onSuccess?: (data: VerCardData) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: redeemCard,
    onSuccess: async (data) => {
      await queryClient.invalidateQueries({ queryKey: storeKeys.all });
      onSuccess?.(data);
    },
  });
}

/** GET /api/getArrDomains: the open domains a card without its own domain can be redeemed on. */
export function getRedeemDomains(): Promise<OpenDomain[]> {
  return callApi<OpenDomain[]>({ method: 'GET', url: '/getArrDomains' });
}

export function getRedeemDomainsQueryOptions() {
  return queryOptions({ queryKey: storeKeys.redeemDomains(), queryFn: getRedeemDomains });
}

export function useRedeemDomains() {
  return useQuery(getRedeemDomainsQueryOptions());
}
