import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BuyEmailBody, BuyEmailData } from '@youju/contract';
import { apiPost } from '../../../lib/http';
import { shopKeys } from './check-address';

/** POST /api/buyEmail: an order for one mailbox, and how to pay for it. */
export function buyEmail(body: BuyEmailBody): Promise<BuyEmailData> {
  return apiPost<BuyEmailData>('/buyEmail', body);
}

export function useBuyEmail(onSuccess?: (data: BuyEmailData, body: BuyEmailBody) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: buyEmail,
    onSuccess: async (data, body) => {
      await queryClient.invalidateQueries({ queryKey: shopKeys.all });
      onSuccess?.(data, body);
    },
  });
}
