import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiDelete } from '../../../lib/http';
import { invalidateMailLists } from './get-inbox';

/** DELETE /api/user/deleteEmail/{id}: the address and all its mail. */
export function deleteAddress(id: number): Promise<unknown> {
  return apiDelete(`/user/deleteEmail/${encodeURIComponent(id)}`);
}

export function useDeleteAddress(onSuccess?: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAddress,
    onSuccess: async () => {
      await invalidateMailLists(queryClient);
      onSuccess?.();
    },
  });
}
