import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SettingData, UpdateSettingBody } from '@youju/contract';
import { apiPost } from '../../../lib/http';
import { settingsKeys } from './get-settings';

/** POST /api/user/updateSetting: only the parts and fields sent change. */
export function updateSettings(body: UpdateSettingBody): Promise<SettingData> {
  return apiPost<SettingData>('/user/updateSetting', body);
}

export function useUpdateSettings(onSuccess?: (data: SettingData) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSettings,
    onSuccess: (data) => {
      queryClient.setQueryData(settingsKeys.all, data);
      onSuccess?.(data);
    },
  });
}
