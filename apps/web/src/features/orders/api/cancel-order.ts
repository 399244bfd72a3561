import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Order } from '@youju/contract';
import { callApi } from '../../../lib/api-error';
import { orderKeys } from './get-orders';

/** POST /api/user/cancelOrder: an unpaid order; its address is free again. */
export function cancelOrder(orderNo: string): Promise<Order> {
  return callApi<Order>({ method: 'POST', url: '/user/cancelOrder', data: { orderNo } });
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
