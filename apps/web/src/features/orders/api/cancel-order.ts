import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Order } from '@youju/contract';
import { apiPost } from '../../../lib/http';
import { orderKeys } from './get-orders';

/** POST /api/user/cancelOrder: an unpaid order; its address is free again. */
export function cancelOrder(orderNo: string): Promise<Order> {
  return apiPost<Order>('/user/cancelOrder', { orderNo });
}

export function useCancelOrder(onSuccess?: (order: Order) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelOrder,
    onSuccess: async (order) => {
      await queryClient.invalidateQueries({ queryKey: orderKeys.all });
      onSuccess?.(order);
    },
  });
}
