import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DashboardView } from '@youju/contract';
import { apiGet } from '../../../lib/http';

/** GET /api/user/getDashboard: totals, 30 days of mail in and out, and the health radar. */
export function getDashboard(): Promise<DashboardView> {
  return apiGet<DashboardView>('/user/getDashboard');
}

export function getDashboardQueryOptions() {
  return queryOptions({ queryKey: ['dashboard'], queryFn: getDashboard, refetchInterval: 60_000 });
}

export function useDashboard() {
  return useQuery(getDashboardQueryOptions());
}
