import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Filter } from '@youju/contract';
import { apiGet } from '../../../lib/http';

/** GET /api/user/getFilters: the caller's content filters (administrators: all). */
export function getFilters(): Promise<Filter[]> {
  return apiGet<Filter[]>('/user/getFilters');
}

export const filterKeys = {
  all: ['filters'] as const,
  list: () => [...filterKeys.all, 'list'] as const,
};

export function getFiltersQueryOptions() {
  return queryOptions({ queryKey: filterKeys.list(), queryFn: getFilters });
}

export function useFilters() {
  return useQuery(getFiltersQueryOptions());
}
