import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DnsProviderData, SetDnsProviderBody } from '@youju/contract';
import { apiGet, apiPost } from '../../../lib/http';
import { domainKeys } from './domain-keys';

/** GET /api/user/getDnsProvider?id=: the provider settings; the secret only ever masked. */
export function getDnsProvider(id: number): Promise<DnsProviderData> {
  return apiGet<DnsProviderData>('/user/getDnsProvider', { id });
}

export function getDnsProviderQueryOptions(id: number) {
  return queryOptions({ queryKey: domainKeys.provider(id), queryFn: () => getDnsProvider(id) });
}

export function useDnsProvider(id: number | null) {
  return useQuery({ ...getDnsProviderQueryOptions(id ?? 0), enabled: id !== null });
}

/** POST /api/user/setDnsProvider: an empty secret keeps the stored one. */
export function setDnsProvider(body: SetDnsProviderBody): Promise<DnsProviderData> {
  return apiPost<DnsProviderData>('/user/setDnsProvider', body);
}

export function useSetDnsProvider(onSuccess?: (data: DnsProviderData) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setDnsProvider,
    onSuccess: async (data, body) => {
      await queryClient.invalidateQueries({ queryKey: domainKeys.provider(body.id) });
      onSuccess?.(data);
    },
  });
}
