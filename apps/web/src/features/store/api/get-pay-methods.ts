import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PayMethod } from '@youju/contract';
import { callApi } from '../../../lib/api-error';
import { storeKeys } from './check-address';

/** GET /api/getPayMethods: how a buyer can pay now. */
export function getPayMethods(): Promise<PayMethod[]> {
  return callApi<PayMethod[]>({ method: 'GET', url: '/getPayMethods' });
}

export function getPayMethodsQueryOptions() {
  return queryOptions({ queryKey: storeKeys.payMethods(), queryFn: getPayMethods });
}

export function usePayMethods() {
  return useQuery(getPayMethodsQueryOptions());
}
