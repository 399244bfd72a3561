import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiKeyView } from '@youju/contract';
import { apiGet, apiPost } from '../../../lib/http';

export const apiKeyKeys = { all: ['api-key'] as const };

/** GET /api/user/getKey: made (and shown in full) on the first call, masked afterwards. */
export function getApiKey(): Promise<ApiKeyView> {
  return apiGet<ApiKeyView>('/user/getKey');
}

/** The full key is in the answer once; it must not be fetched again behind the person's back. */
export function getApiKeyQueryOptions() {
  return queryOptions({ queryKey: apiKeyKeys.all, queryFn: getApiKey, staleTime: Number.POSITIVE_INFINITY });
}

export function useApiKey() {
  return useQuery(getApiKeyQueryOptions());
}

/** POST /api/user/refreshKey: a new key; the old one stops working at once. */
export function refreshApiKey(): Promise<ApiKeyView> {
  return apiPost<ApiKeyView>('/user/refreshKey');
}

export function useRefreshApiKey(onSuccess?: (key: ApiKeyView) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refreshApiKey,
    onSuccess: (key) => {
      queryClient.setQueryData(apiKeyKeys.all, key);
      onSuccess?.(key);
    },
  });
}
