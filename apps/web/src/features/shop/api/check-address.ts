import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CheckAddressData } from '@youju/contract';
import { apiGet } from '../../../lib/http';

/** Every query of this feature lives under ['shop']. */
export const shopKeys = {
  all: ['shop'] as const,
  address: (domainId: number, localPart: string) =>
    [...shopKeys.all, 'address', domainId, localPart] as const,
  payMethods: () => [...shopKeys.all, 'pay-methods'] as const,
  orders: (phone: string) => [...shopKeys.all, 'orders', phone] as const,
};

/** GET /api/checkAddress: is this address free to buy? */
export function checkAddress(domainId: number, localPart: string): Promise<CheckAddressData> {
  return apiGet<CheckAddressData>('/checkAddress', { domainId, localPart });
}

export function checkAddressQueryOptions(domainId: number, localPart: string) {
  return queryOptions({
    queryKey: shopKeys.address(domainId, localPart),
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
