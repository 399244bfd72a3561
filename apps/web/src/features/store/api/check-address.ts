import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CheckAddressData } from '@youju/contract';
import { callApi } from '../../../lib/api-error';

/** Every query of this feature lives under ['store']. */
export const storeKeys = {
  all: ['store'] as const,
  address: (domainId: number, localPart: string) =>
    [...storeKeys.all, 'address', domainId, localPart] as const,
  payMethods: () => [...storeKeys.all, 'pay-methods'] as const,
  redeemDomains: () => [...storeKeys.all, 'redeem-domains'] as const,
  orders: (phone: string) => [...storeKeys.all, 'orders', phone] as const,
};

/** GET /api/checkAddress: is this address free to buy? */
export function checkAddress(domainId: number, localPart: string): Promise<CheckAddressData> {
  return callApi<CheckAddressData>({ method: 'GET', url: '/checkAddress', params: { domainId, localPart } });
}

export function checkAddressQueryOptions(domainId: number, localPart: string) {
  return queryOptions({
    queryKey: storeKeys.address(domainId, localPart),
    queryFn: () => checkAddress(domainId, localPart),
    staleTime: 5_000,
    // The form shows the answer beside the field; a failed check is not worth a toast.
    meta: { silent: true },
  });
}

export function useCheckAddress(domainId: number | undefined, localPart: string) {
  return useQuery({
    ...checkAddressQueryOptions(domainId ?? 0, localPart),
    enabled: domainId !== undefined && localPart !== '',
  });
}
