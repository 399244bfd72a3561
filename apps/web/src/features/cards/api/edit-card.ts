import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Card, EditCardBody } from '@youju/contract';
import { callApi } from '../../../lib/api-error';
import { cardKeys } from './get-cards';

/** POST /api/user/editCard: disable or re-enable an unused card, change its note. */
export function editCard(body: EditCardBody): Promise<Card> {
  return callApi<Card>({ method: 'POST', url: '/user/editCard', data: body });
}

export function useEditCard(onSuccess?: (card: Card) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: editCard,
    onSuccess: async (card) => {
      await queryClient.invalidateQueries({ queryKey: cardKeys.all });
      onSuccess?.(card);
    },
  });
}
