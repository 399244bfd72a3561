import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { LoginHistoryItem, PageOf } from '@youju/contract';
import { apiGet } from '../../../lib/http';
import { securityKeys } from './sessions';

/** GET /api/user/getLoginHistory: the caller's login attempts, newest first. */
export function getLoginHistory(page: number, pageSize: number): Promise<PageOf<LoginHistoryItem>> {
  return apiGet<PageOf<LoginHistoryItem>>('/user/getLoginHistory', { page, pageSize });
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
