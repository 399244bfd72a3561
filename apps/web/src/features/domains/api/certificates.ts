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

export function useCertificates(enabled: boolean) {
  return useQuery({ ...getCertificatesQueryOptions(), enabled });
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
