import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Order } from '@youju/contract';
import { apiPost } from '../../../lib/http';
import { orderKeys } from './get-orders';

/** POST /api/user/confirmOrder: manual payment received; the mailbox is created once. */
export function confirmOrder(orderNo: string): Promise<Order> {
  return apiPost<Order>('/user/confirmOrder', { orderNo });
}

export function useConfirmOrder(onSuccess?: (order: Order) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmOrder,
    onSuccess: async (order) => {
      await queryClient.invalidateQueries({ queryKey: orderKeys.all });
      onSuccess?.(order);
    },
  });
}
