import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OpenDomain } from '@youju/contract';
import { callApi } from '../../../lib/api-error';

/** GET /api/getArrDomains: domains open for free registration. */
export function getOpenDomains(): Promise<OpenDomain[]> {
  return callApi<OpenDomain[]>({ method: 'GET', url: '/getArrDomains' });
}

export const temporaryMailboxKeys = {
  all: ['temporary-mailbox'] as const,
  domains: () => [...temporaryMailboxKeys.all, 'domains'] as const,
};

export function getOpenDomainsQueryOptions() {
  return queryOptions({ queryKey: temporaryMailboxKeys.domains(), queryFn: getOpenDomains });
}

export function useOpenDomains(enabled: boolean) {
  return useQuery({ ...getOpenDomainsQueryOptions(), enabled });
}
