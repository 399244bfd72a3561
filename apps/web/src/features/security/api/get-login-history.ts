import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { LoginHistoryItem, PageOf } from '@youju/contract';
import { callApi } from '../../../lib/api-error';
import { securityKeys } from './sessions';

/** GET /api/user/getLoginHistory: the caller's login attempts, newest first. */
export function getLoginHistory(page: number, pageSize: number): Promise<PageOf<LoginHistoryItem>> {
  return callApi<PageOf<LoginHistoryItem>>({
    method: 'GET',
    url: '/user/getLoginHistory',
    params: { page, pageSize },
  });
}

export function getLoginHistoryQueryOptions(page: number, pageSize: number) {
  return queryOptions({
    queryKey: securityKeys.history(page, pageSize),
    queryFn: () => getLoginHistory(page, pageSize),
    placeholderData: keepPreviousData,
  });
}

export function useLoginHistory(page: number, pageSize: number) {
  return useQuery(getLoginHistoryQueryOptions(page, pageSize));
}
