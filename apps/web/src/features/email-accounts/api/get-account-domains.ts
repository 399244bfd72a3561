import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Domain } from '@youju/contract';
import { callApi } from '../../../lib/api-error';
import { emailAccountKeys } from './get-email-accounts';

/** GET /api/user/getDomains: the domains new accounts can be created on. */
export function getAccountDomains(): Promise<Domain[]> {
  return callApi<Domain[]>({ method: 'GET', url: '/user/getDomains' });
}

export function getAccountDomainsQueryOptions() {
  return queryOptions({ queryKey: emailAccountKeys.domains(), queryFn: getAccountDomains });
}

export function useAccountDomains(enabled = true) {
  return useQuery({ ...getAccountDomainsQueryOptions(), enabled });
}
