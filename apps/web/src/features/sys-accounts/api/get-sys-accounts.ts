import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { PageOf, PageQuery, SysAccount } from '@youju/contract';
import { apiGet } from '../../../lib/http';

/** GET /api/admin/getSysAccount: one page of system accounts (administrators only). */
export function getSysAccounts(params: Required<PageQuery>): Promise<PageOf<SysAccount>> {
  return apiGet<PageOf<SysAccount>>('/admin/getSysAccount', params);
}

/** Without paging it yields the key every page lives under, which mutations invalidate. */
export function getSysAccountsQueryOptions(params?: Required<PageQuery>) {
  const queryKey = params ? ['sys-accounts', params] : ['sys-accounts'];
  return queryOptions({
    queryKey,
    queryFn: () => getSysAccounts(params ?? { page: 1, pageSize: 20 }),
    placeholderData: keepPreviousData,
  });
}

export function useSysAccounts(params: Required<PageQuery>) {
  return useQuery(getSysAccountsQueryOptions(params));
}
