import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TelegramSettings, TelegramSettingsInput } from '@youju/contract';
import { apiGet, apiPost } from '../../../lib/http';
import { webhookKeys } from './get-webhooks';

/** GET /api/user/getTelegram: chat and state; the bot token is never sent back. */
export function getTelegram(): Promise<TelegramSettings> {
  return apiGet<TelegramSettings>('/user/getTelegram');
}

export function getTelegramQueryOptions() {
  return queryOptions({ queryKey: webhookKeys.telegram(), queryFn: getTelegram });
}

export function useTelegram() {
  return useQuery(getTelegramQueryOptions());
}

/** POST /api/user/setTelegram: when enabled, saved only after a test message went through. */
export function setTelegram(body: TelegramSettingsInput): Promise<unknown> {
  return apiPost('/user/setTelegram', body);
}

export function useSetTelegram(onSuccess?: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setTelegram,
    meta: { silent: true },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: webhookKeys.telegram() });
      onSuccess?.();
    },
  });
}
