import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateCardBody, CreateCardData } from '@youju/contract';
import { apiPost } from '../../../lib/http';
import { cardKeys } from './get-cards';

/** POST /api/user/createCard: a batch of 1–1000 codes. */
export function createCards(body: CreateCardBody): Promise<CreateCardData> {
  return apiPost<CreateCardData>('/user/createCard', body);
}

export function useCreateCards(onSuccess?: (data: CreateCardData) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCards,
    onSuccess: async (data) => {
      await queryClient.invalidateQueries({ queryKey: cardKeys.all });
      onSuccess?.(data);
    },
  });
}
