import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PayMethod } from '@youju/contract';
import { apiGet } from '../../../lib/http';
import { shopKeys } from './check-address';

/** GET /api/getPayMethods: how a buyer can pay now. */
export function getPayMethods(): Promise<PayMethod[]> {
  return apiGet<PayMethod[]>('/getPayMethods');
}

export function getPayMethodsQueryOptions() {
  return queryOptions({ queryKey: shopKeys.payMethods(), queryFn: getPayMethods });
}

export function usePayMethods() {
  return useQuery(getPayMethodsQueryOptions());
}
