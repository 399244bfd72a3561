import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Domain } from '@youju/contract';
import { callApi } from '../../../lib/api-error';
import { mailKeys } from './get-inbox';

/** GET /api/user/getDomains: the domains a new address may be created on. */
export function getAddressDomains(): Promise<Domain[]> {
  return callApi<Domain[]>({ method: 'GET', url: '/user/getDomains' });
}

export function getAddressDomainsQueryOptions() {
  return queryOptions({ queryKey: mailKeys.domains(), queryFn: getAddressDomains });
}

export function useAddressDomains(enabled: boolean) {
  return useQuery({ ...getAddressDomainsQueryOptions(), enabled });
}
