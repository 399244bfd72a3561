import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicOrder } from '@youju/contract';
import { apiGet } from '../../../lib/http';
import { shopKeys } from './check-address';

/** GET /api/queryOrder?phone=: that phone's orders (never passwords; the address once delivered). */
export function queryOrders(phone: string): Promise<PublicOrder[]> {
  return apiGet<PublicOrder[]>('/queryOrder', { phone });
}

export function queryOrdersQueryOptions(phone: string) {
  return queryOptions({
    queryKey: shopKeys.orders(phone),
    queryFn: () => queryOrders(phone),
    staleTime: 0,
    meta: { silent: true },
  });
}

export function useQueryOrders(phone: string) {
  return useQuery({ ...queryOrdersQueryOptions(phone), enabled: phone !== '' });
}
