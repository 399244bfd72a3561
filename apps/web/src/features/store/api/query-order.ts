import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicOrder } from '@youju/contract';
import { callApi } from '../../../lib/api-error';
import { storeKeys } from './check-address';

/** GET /api/queryOrder?phone=: that phone's orders (never passwords; the address once delivered). */
export function queryOrders(phone: string): Promise<PublicOrder[]> {
  return callApi<PublicOrder[]>({ method: 'GET', url: '/queryOrder', params: { phone } });
}

export function queryOrdersQueryOptions(phone: string) {
  return queryOptions({
    queryKey: storeKeys.orders(phone),
    queryFn: () => queryOrders(phone),
    staleTime: 0,
    meta: { silent: true },
  });
}

export function useQueryOrders(phone: string) {
  return useQuery({ ...queryOrdersQueryOptions(phone), enabled: phone !== '' });
}
