import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-error';
import { cardKeys } from './get-cards';

/** POST /api/user/delCard */
export function deleteCards(ids: number[]): Promise<{ deleted: number }> {
  return callApi<{ deleted: number }>({ method: 'POST', url: '/user/delCard', data: { ids } });
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
