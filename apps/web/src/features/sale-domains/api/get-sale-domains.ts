import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SaleDomain } from '@youju/contract';
import { apiGet } from '../../../lib/http';

/** GET /api/getAdminDomains: domains whose mailboxes are for sale, price in fen. */
export function getSaleDomains(): Promise<SaleDomain[]> {
  return apiGet<SaleDomain[]>('/getAdminDomains');
}

export function getSaleDomainsQueryOptions() {
  return queryOptions({ queryKey: ['sale-domains'], queryFn: getSaleDomains });
}

export function useSaleDomains(enabled = true) {
  return useQuery({ ...getSaleDomainsQueryOptions(), enabled });
}
