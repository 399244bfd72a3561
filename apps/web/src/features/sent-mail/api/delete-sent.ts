import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/http';
import { sentKeys } from './get-sent';

/** POST /api/user/delSentEmail: deleting also cancels deliveries still in the queue. */
export function deleteSent(ids: number[]): Promise<{ deleted: number }> {
  return apiPost<{ deleted: number }>('/user/delSentEmail', { ids });
}

export function useDeleteSent(onSuccess?: (deleted: number) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSent,
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: sentKeys.all });
      onSuccess?.(result.deleted);
    },
  });
}
