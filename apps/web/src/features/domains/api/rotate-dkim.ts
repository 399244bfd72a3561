import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DkimData, RemoveDkimKeyBody, RotateDkimBody } from '@youju/contract';
import { apiPost } from '../../../lib/http';
import { domainKeys } from './domain-keys';

/** POST /api/user/rotateDkim: a new selector signs from now on; the old key stays published. */
export function rotateDkim(body: RotateDkimBody): Promise<DkimData> {
  return apiPost<DkimData>('/user/rotateDkim', body);
}

/** POST /api/user/removeDkimKey: unpublishes a retired key. */
export function removeDkimKey(body: RemoveDkimKeyBody): Promise<DkimData> {
  return apiPost<DkimData>('/user/removeDkimKey', body);
}

export function useRotateDkim(onSuccess?: (data: DkimData) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rotateDkim,
    onSuccess: async (data) => {
      await queryClient.invalidateQueries({ queryKey: domainKeys.all });
      onSuccess?.(data);
    },
  });
}

export function useRemoveDkimKey(onSuccess?: (data: DkimData) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeDkimKey,
    onSuccess: async (data) => {
      await queryClient.invalidateQueries({ queryKey: domainKeys.all });
      onSuccess?.(data);
    },
  });
}
