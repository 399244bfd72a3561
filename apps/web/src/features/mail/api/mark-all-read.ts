import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/http';
import { invalidateMailLists } from './get-inbox';

/**
 * POST /api/user/markAllRead: every unread message of the caller's mail, or of one address of it
 * (`address`); `updated` counts the messages marked.
 */
export function markAllRead(address?: string): Promise<{ updated: number }> {
  return apiPost<{ updated: number }>('/user/markAllRead', address ? { address } : {});
}

export function useMarkAllRead(onSuccess?: (updated: number) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markAllRead,
    onSuccess: async ({ updated }) => {
      await invalidateMailLists(queryClient);
      onSuccess?.(updated);
    },
  });
}
