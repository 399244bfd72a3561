import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SettingData } from '@youju/contract';
import { apiGet } from '../../../lib/http';

/** GET /api/user/getSetting: personal settings, plus system and payment ones for administrators. */
export function getSettings(): Promise<SettingData> {
  return apiGet<SettingData>('/user/getSetting');
}

export const settingsKeys = { all: ['settings'] as const };

export function getSettingsQueryOptions() {
  return queryOptions({ queryKey: settingsKeys.all, queryFn: getSettings });
}

export function useSettings() {
  return useQuery(getSettingsQueryOptions());
}
