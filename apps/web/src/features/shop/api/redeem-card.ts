import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { VerCardBody, VerCardData } from '@youju/contract';
import { apiPost } from '../../../lib/http';
import { shopKeys } from './check-address';

/** POST /api/verCard: redeem a code for a new mailbox or to extend one. */
export function redeemCard(body: VerCardBody): Promise<VerCardData> {
  return apiPost<VerCardData>('/verCard', body);
}

export function useRedeemCard(onSuccess?: (data: VerCardData) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: redeemCard,
    onSuccess: async (data) => {
      await queryClient.invalidateQueries({ queryKey: shopKeys.all });
      onSuccess?.(data);
    },
  });
}
