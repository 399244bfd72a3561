import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateCardBody, CreateCardData } from '@youju/contract';
import { callApi } from '../../../lib/api-error';
import { cardKeys } from './get-cards';

/** POST /api/user/createCard: a batch of 1–1000 codes. */
export function createCards(body: CreateCardBody): Promise<CreateCardData> {
  return callApi<CreateCardData>({ method: 'POST', url: '/user/createCard', data: body });
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
