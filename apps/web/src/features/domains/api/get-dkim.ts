import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DkimData } from '@youju/contract';
import { apiGet } from '../../../lib/http';
import { domainKeys } from './domain-keys';

/** GET /api/user/getDkim?id=: the signing key's TXT record and every published key. */
export function getDkim(id: number): Promise<DkimData> {
  return apiGet<DkimData>('/user/getDkim', { id });
}

export function getDkimQueryOptions(id: number) {
  return queryOptions({ queryKey: domainKeys.dkim(id), queryFn: () => getDkim(id) });
}

export function useDkim(id: number | null) {
  return useQuery({ ...getDkimQueryOptions(id ?? 0), enabled: id !== null });
}
