import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AddBlacklistQuery, BlacklistItem } from '@youju/contract';
import { apiGet } from '../../../lib/http';

export const blacklistKeys = { all: ['blacklist'] as const };

/** GET /api/waf/getBlacklist: every entry, automatic bans included. */
export function getBlacklist(): Promise<BlacklistItem[]> {
  return apiGet<BlacklistItem[]>('/waf/getBlacklist');
}

export function getBlacklistQueryOptions() {
  return queryOptions({ queryKey: blacklistKeys.all, queryFn: getBlacklist });
}

export function useBlacklist() {
  return useQuery(getBlacklistQueryOptions());
}

/** GET /api/waf/addBlacklistIP: answers 409 when the entry covers the caller's own address. */
export function addBlacklistIp(query: AddBlacklistQuery): Promise<{ ip: string }> {
  return apiGet<{ ip: string }>('/waf/addBlacklistIP', query);
}

/** GET /api/waf/removeBlacklistIP */
export function removeBlacklistIp(ip: string): Promise<void> {
  return apiGet<void>('/waf/removeBlacklistIP', { ip });
}

export function useAddBlacklistIp(onSuccess?: (entry: { ip: string }) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addBlacklistIp,
    // The 409 own-address warning is shown by the form itself, with a way to confirm.
    meta: { silent: true },
    onSuccess: async (entry) => {
      await queryClient.invalidateQueries({ queryKey: blacklistKeys.all });
      onSuccess?.(entry);
    },
  });
}

export function useRemoveBlacklistIp(onSuccess?: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeBlacklistIp,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: blacklistKeys.all });
      onSuccess?.();
    },
  });
}
