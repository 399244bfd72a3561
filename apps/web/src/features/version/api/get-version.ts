import { queryOptions, useQuery } from '@tanstack/react-query';
import type { VersionInfo } from '@youju/contract';
import { apiGet } from '../../../lib/http';

/** GET /api/user/getVersion: the running release, its build and its changelog. */
export function getVersion(): Promise<VersionInfo> {
  return apiGet<VersionInfo>('/user/getVersion');
}

export function getVersionQueryOptions() {
  return queryOptions({ queryKey: ['version'], queryFn: getVersion, staleTime: 0 });
}

export function useVersion() {
  return useQuery(getVersionQueryOptions());
}
