import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DkimData } from '@youju/contract';
import { callApi } from '../../../lib/api-error';
import { domainKeys } from './get-domains';

/** GET /api/user/getDkim?id=: the signing key's TXT record and every published key. */
export function getDkim(id: number): Promise<DkimData> {
  return callApi<DkimData>({ method: 'GET', url: '/user/getDkim', params: { id } });
}

export function getDkimQueryOptions(id: number) {
  return queryOptions({ queryKey: domainKeys.dkim(id), queryFn: () => getDkim(id) });
}

export function useDkim(id: number | null) {
  return useQuery({ ...getDkimQueryOptions(id ?? 0), enabled: id !== null });
}
