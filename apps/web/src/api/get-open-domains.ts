import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OpenDomain } from '@youju/contract';
import { apiGet } from '../lib/http';

/** The domains open to everyone: mailbox registration, the temporary mailbox and card redemption. */
export const openDomainQueryKeys = { all: ['open-domains'] as const };

/** GET /api/getArrDomains: domains open for free registration. */
export function getOpenDomains(): Promise<OpenDomain[]> {
  return apiGet<OpenDomain[]>('/getArrDomains');
}

export function getOpenDomainsQueryOptions() {
  return queryOptions({ queryKey: openDomainQueryKeys.all, queryFn: getOpenDomains });
}

export function useOpenDomains(enabled = true) {
  return useQuery({ ...getOpenDomainsQueryOptions(), enabled });
}
