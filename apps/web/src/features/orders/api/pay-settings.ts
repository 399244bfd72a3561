import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PaySettings, UpdatePaySettingsBody } from '@youju/contract';
import { apiGet, apiPost } from '../../../lib/http';
import { orderKeys } from './get-orders';

/** GET /api/user/getPaySettings (administrators): the EPay key is never sent, only whether it is set. */
export function getPaySettings(): Promise<PaySettings> {
  return apiGet<PaySettings>('/user/getPaySettings');
}

export function getPaySettingsQueryOptions() {
  return queryOptions({ queryKey: orderKeys.paySettings(), queryFn: getPaySettings });
}

export function usePaySettings(enabled = true) {
  return useQuery({ ...getPaySettingsQueryOptions(), enabled });
}

/** POST /api/user/updatePaySettings: an empty key keeps the stored one. */
export function updatePaySettings(body: UpdatePaySettingsBody): Promise<PaySettings> {
  return apiPost<PaySettings>('/user/updatePaySettings', body);
}

export function useUpdatePaySettings(onSuccess?: (settings: PaySettings) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePaySettings,
    onSuccess: async (settings) => {
      await queryClient.invalidateQueries({ queryKey: orderKeys.paySettings() });
      onSuccess?.(settings);
    },
  });
}
