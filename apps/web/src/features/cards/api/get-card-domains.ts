import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Domain } from '@youju/contract';
import { callApi } from '../../../lib/api-error';
import { cardKeys } from './get-cards';

/** GET /api/user/getDomains: the domains a card can be bound to. */
export function getCardDomains(): Promise<Domain[]> {
  return callApi<Domain[]>({ method: 'GET', url: '/user/getDomains' });
}

export function getCardDomainsQueryOptions() {
  return queryOptions({ queryKey: cardKeys.domains(), queryFn: getCardDomains });
}

export function useCardDomains(enabled = true) {
  return useQuery({ ...getCardDomainsQueryOptions(), enabled });
}
