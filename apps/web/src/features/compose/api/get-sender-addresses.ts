import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AddressItem, Domain } from '@youju/contract';
import { callApi } from '../../../lib/api-error';

/** What a system user may put in From: its addresses, and any name on the domains it runs. */
export interface SenderChoices {
  addresses: string[];
  domains: string[];
}

/** GET /api/user/emailList and GET /api/user/getDomains, read together for the From field. */
export async function getSenderChoices(): Promise<SenderChoices> {
  const [addresses, domains] = await Promise.all([
    callApi<AddressItem[]>({ method: 'GET', url: '/user/emailList' }),
    callApi<Domain[]>({ method: 'GET', url: '/user/getDomains' }),
  ]);
  return {
    addresses: addresses.map((item) => item.address),
    domains: domains.map((domain) => domain.name),
  };
}

export const composeKeys = {
  all: ['compose'] as const,
  senders: () => [...composeKeys.all, 'senders'] as const,
};

export function getSenderChoicesQueryOptions() {
  return queryOptions({ queryKey: composeKeys.senders(), queryFn: getSenderChoices });
}

/** Mailbox sessions send from their one address and have no lists to read. */
export function useSenderChoices(enabled: boolean) {
  return useQuery({ ...getSenderChoicesQueryOptions(), enabled });
}
