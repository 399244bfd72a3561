import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Domain } from '@youju/contract';
import { callApi } from '../../../lib/api-error';

/** GET /api/user/getDomains: the caller's domains (administrators: all). */
export function getDomains(): Promise<Domain[]> {
  return callApi<Domain[]>({ method: 'GET', url: '/user/getDomains' });
}

/** Every query of this feature lives under ['domains'], so one invalidation refreshes them all. */
export const domainKeys = {
  all: ['domains'] as const,
  list: () => [...domainKeys.all, 'list'] as const,
  dkim: (id: number) => [...domainKeys.all, id, 'dkim'] as const,
  provider: (id: number) => [...domainKeys.all, id, 'provider'] as const,
};

export function getDomainsQueryOptions() {
  return queryOptions({ queryKey: domainKeys.list(), queryFn: getDomains });
}

export function useDomains() {
  return useQuery(getDomainsQueryOptions());
}
