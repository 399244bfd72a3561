import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DashboardView } from '@youju/contract';
import { callApi } from '../../../lib/api-error';

/** GET /api/user/getDashboard: totals, 30 days of mail in and out, and the health radar. */
export function getDashboard(): Promise<DashboardView> {
  return callApi<DashboardView>({ method: 'GET', url: '/user/getDashboard' });
}

export function getDashboardQueryOptions() {
  return queryOptions({ queryKey: ['dashboard'], queryFn: getDashboard, refetchInterval: 60_000 });
}

export function useDashboard() {
  return useQuery(getDashboardQueryOptions());
}
