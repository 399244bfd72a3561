import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Domain } from '@youju/contract';
import { apiGet } from '../lib/http';

/**
 * The caller's domains: the domain screen lists them, and every form that picks a domain (new
 * address, mailbox account, card, the From field, the API examples) reads the same cached list.
 * Everything about domains lives under ['domains'], so a change to a domain refreshes them all.
 */
export const domainQueryKeys = {
  all: ['domains'] as const,
  list: () => [...domainQueryKeys.all, 'list'] as const,
};

/** GET /api/user/getDomains: the caller's domains (administrators: all). */
export function getDomains(): Promise<Domain[]> {
  return apiGet<Domain[]>('/user/getDomains');
}

export function getDomainsQueryOptions() {
  return queryOptions({ queryKey: domainQueryKeys.list(), queryFn: getDomains });
}

export function useDomains(enabled = true) {
  return useQuery({ ...getDomainsQueryOptions(), enabled });
}
