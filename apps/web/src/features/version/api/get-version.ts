import { queryOptions, useQuery } from '@tanstack/react-query';
import type { VersionInfo } from '@youju/contract';
import { callApi } from '../../../lib/api-error';

/** GET /api/user/getVersion: the running release, its build and its changelog. */
export function getVersion(): Promise<VersionInfo> {
  return callApi<VersionInfo>({ method: 'GET', url: '/user/getVersion' });
}

export function getVersionQueryOptions() {
  return queryOptions({ queryKey: ['version'], queryFn: getVersion, staleTime: 0 });
}

export function useVersion() {
  return useQuery(getVersionQueryOptions());
}
