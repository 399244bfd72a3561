import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-error';
import { sentKeys } from './get-sent';

/** POST /api/user/delSentEmail: deleting also cancels deliveries still in the queue. */
export function deleteSent(ids: number[]): Promise<{ deleted: number }> {
  return callApi<{ deleted: number }>({ method: 'POST', url: '/user/delSentEmail', data: { ids } });
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
