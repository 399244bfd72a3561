import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SaleDomain } from '@youju/contract';
import { callApi } from '../../../lib/api-error';

/** GET /api/getAdminDomains: domains whose mailboxes are for sale, price in fen. */
export function getSaleDomains(): Promise<SaleDomain[]> {
  return callApi<SaleDomain[]>({ method: 'GET', url: '/getAdminDomains' });
}

export function getSaleDomainsQueryOptions() {
  return queryOptions({ queryKey: ['sale-domains'], queryFn: getSaleDomains });
}

export function useSaleDomains(enabled = true) {
  return useQuery({ ...getSaleDomainsQueryOptions(), enabled });
}
