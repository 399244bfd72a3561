import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Order, OrderStatus, PageOf } from '@youju/contract';
import { apiGet } from '../../../lib/http';

export interface OrderListParams {
  page: number;
  pageSize: number;
  status?: OrderStatus;
  phone?: string;
}

/** Every query of this feature lives under ['orders'], so one invalidation refreshes them all. */
export const orderKeys = {
  all: ['orders'] as const,
  list: (params: OrderListParams) => [...orderKeys.all, 'list', params] as const,
};

/** GET /api/user/getOrders: orders on the caller's domains (administrators: all). */
export function getOrders(params: OrderListParams): Promise<PageOf<Order>> {
  return apiGet<PageOf<Order>>('/user/getOrders', params);
}

export function getOrdersQueryOptions(params: OrderListParams) {
  return queryOptions({
    queryKey: orderKeys.list(params),
    queryFn: () => getOrders(params),
    placeholderData: keepPreviousData,
  });
}

export function useOrders(params: OrderListParams) {
  return useQuery(getOrdersQueryOptions(params));
}
