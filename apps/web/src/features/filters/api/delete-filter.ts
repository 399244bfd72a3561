import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-error';
import { filterKeys } from './get-filters';

/** POST /api/user/delFilter */
export function deleteFilter(id: number): Promise<unknown> {
  return callApi({ method: 'POST', url: '/user/delFilter', data: { id } });
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
