import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ClientSettingsData } from '@youju/contract';
import { apiGet } from '../../../lib/http';

export const clientSettingsKeys = {
  all: ['client-settings'] as const,
  of: (address: string | null) => [...clientSettingsKeys.all, address ?? ''] as const,
};

/**
 * GET /api/user/getClientSettings: server, ports and user name of one address. A mailbox session
 * leaves the address out (its own); a system user names one of its addresses.
 */
export function getClientSettings(address: string | null): Promise<ClientSettingsData> {
  return apiGet<ClientSettingsData>('/user/getClientSettings', address ? { address } : {});
}

export function getClientSettingsQueryOptions(address: string | null) {
  return queryOptions({
    queryKey: clientSettingsKeys.of(address),
    queryFn: () => getClientSettings(address),
    retry: false,
  });
}

export function useClientSettings(address: string | null, enabled = true) {
  return useQuery({ ...getClientSettingsQueryOptions(address), enabled });
}
