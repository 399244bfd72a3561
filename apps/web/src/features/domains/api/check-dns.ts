import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DnsRecordsData } from '@youju/contract';
import { callApi } from '../../../lib/api-error';
import { domainKeys } from './get-domains';

/** POST /api/user/checkDNS: per-record result; the domain's dnsStatus changes with it. */
export function checkDns(id: number): Promise<DnsRecordsData> {
  return callApi<DnsRecordsData>({ method: 'POST', url: '/user/checkDNS', data: { id } });
}

/** POST /api/user/setDNS: writes the records through the domain's DNS provider. */
export function setDns(id: number): Promise<DnsRecordsData> {
  return callApi<DnsRecordsData>({ method: 'POST', url: '/user/setDNS', data: { id } });
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
