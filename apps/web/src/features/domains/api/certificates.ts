import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CertificatesData } from '@youju/contract';
import { apiGet, apiPost } from '../../../lib/http';

/** GET /api/user/getCertificates (administrators): the folders of DATA_DIR/certs and their state. */
export function getCertificates(): Promise<CertificatesData> {
  return apiGet<CertificatesData>('/user/getCertificates');
}

export function getCertificatesQueryOptions() {
  return queryOptions({ queryKey: ['certificates'], queryFn: getCertificates });
}

/** While an ACME order is in flight (续期中) the list is asked again every few seconds. */
const RENEWING_POLL_MS = 3000;

export function useCertificates(enabled: boolean) {
  return useQuery({
    ...getCertificatesQueryOptions(),
    enabled,
    refetchInterval: (query) =>
      query.state.data?.certificates.some((entry) => entry.acme?.state === 'renewing')
        ? RENEWING_POLL_MS
        : false,
  });
}

/** POST /api/user/reloadCertificates: re-reads the folder and swaps the certificates live. */
export function reloadCertificates(): Promise<CertificatesData> {
  return apiPost<CertificatesData>('/user/reloadCertificates', {});
}

export function useReloadCertificates(onSuccess?: (data: CertificatesData) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reloadCertificates,
    onSuccess: (data) => {
      queryClient.setQueryData(getCertificatesQueryOptions().queryKey, data);
      onSuccess?.(data);
    },
  });
}

/**
 * POST /api/user/renewCertificates (administrators): an ACME attempt now, whatever the dates say.
 * The answer already shows the certificate 续期中; `useCertificates` then asks again until the
 * order ends, so the result (issued, or the CA's error) appears without a manual refresh.
 */
export function renewCertificates(): Promise<CertificatesData> {
  return apiPost<CertificatesData>('/user/renewCertificates', {});
}

export function useRenewCertificates(onSuccess?: (data: CertificatesData) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renewCertificates,
    onSuccess: (data) => {
      queryClient.setQueryData(getCertificatesQueryOptions().queryKey, data);
      onSuccess?.(data);
    },
  });
}
