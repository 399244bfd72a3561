import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/http';
import { cardKeys } from './get-cards';

/** POST /api/user/delCard */
export function deleteCards(ids: number[]): Promise<{ deleted: number }> {
  return apiPost<{ deleted: number }>('/user/delCard', { ids });
}

export function useDeleteCards(onSuccess?: (result: { deleted: number }) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCards,
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: cardKeys.all });
      onSuccess?.(result);
    },
  });
}
