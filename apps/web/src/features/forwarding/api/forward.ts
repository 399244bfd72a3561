import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ForwardSetting, SetForward } from '@youju/contract';
import { apiGet, apiPost } from '../../../lib/http';

export const forwardKeys = {
  all: ['forward'] as const,
  of: (address: string) => [...forwardKeys.all, address] as const,
};

/** GET /api/user/getForward: where one mailbox forwards its mail, and why a copy was last not sent. */
export function getForward(address: string): Promise<ForwardSetting> {
  return apiGet<ForwardSetting>('/user/getForward', { address });
}

export function getForwardQueryOptions(address: string) {
  return queryOptions({
    queryKey: forwardKeys.of(address),
    queryFn: () => getForward(address),
    retry: false,
  });
}

export function useForward(address: string | null) {
  return useQuery({ ...getForwardQueryOptions(address ?? ''), enabled: address !== null && address !== '' });
}

/** POST /api/user/setForward: sets, pauses or (forwardTo null) removes the forwarding. */
export function setForward(body: SetForward): Promise<ForwardSetting> {
  return apiPost<ForwardSetting>('/user/setForward', body);
}

export function useSetForward(onSuccess?: (setting: ForwardSetting) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setForward,
    meta: { silent: true },
    onSuccess: async (setting) => {
      queryClient.setQueryData(forwardKeys.of(setting.address), setting);
      await queryClient.invalidateQueries({ queryKey: forwardKeys.of(setting.address) });
      onSuccess?.(setting);
    },
  });
}
