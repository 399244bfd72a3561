import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Card, EditCardBody } from '@youju/contract';
import { apiPost } from '../../../lib/http';
import { cardKeys } from './get-cards';

/** POST /api/user/editCard: disable or re-enable an unused card, change its note. */
export function editCard(body: EditCardBody): Promise<Card> {
  return apiPost<Card>('/user/editCard', body);
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
