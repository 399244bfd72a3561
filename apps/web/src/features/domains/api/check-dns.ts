import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DnsRecordsData } from '@youju/contract';
import { apiPost } from '../../../lib/http';
import { domainKeys } from './domain-keys';

/** POST /api/user/checkDNS: per-record result; the domain's dnsStatus changes with it. */
export function checkDns(id: number): Promise<DnsRecordsData> {
  return apiPost<DnsRecordsData>('/user/checkDNS', { id });
}

/** POST /api/user/setDNS: writes the records through the domain's DNS provider. */
export function setDns(id: number): Promise<DnsRecordsData> {
  return apiPost<DnsRecordsData>('/user/setDNS', { id });
}

export function useCheckDns() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: checkDns,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: domainKeys.list() });
    },
  });
}

export function useSetDns() {
  return useMutation({ mutationFn: setDns });
}
