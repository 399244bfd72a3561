import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/http';
import { filterKeys } from './get-filters';

/** POST /api/user/delFilter */
export function deleteFilter(id: number): Promise<unknown> {
  return apiPost('/user/delFilter', { id });
}

export function useDeleteFilter(onSuccess?: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFilter,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: filterKeys.all });
      onSuccess?.();
    },
  });
}
