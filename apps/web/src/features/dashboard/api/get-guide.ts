import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GuideState } from '@youju/contract';
import { apiGet } from '../../../lib/http';

/** GET /api/user/getGuide: the first-run checklist's state, each step from what really exists. */
export function getGuide(): Promise<GuideState> {
  return apiGet<GuideState>('/user/getGuide');
}

export const guideKeys = { all: ['guide'] as const };

export function getGuideQueryOptions() {
  // Steps finish on other screens (and by mail arriving): look again now and then while shown.
  return queryOptions({ queryKey: guideKeys.all, queryFn: getGuide, refetchInterval: 15_000 });
}

export function useGuide(enabled = true) {
  return useQuery({ ...getGuideQueryOptions(), enabled });
}
