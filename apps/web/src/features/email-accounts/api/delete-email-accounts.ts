import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/http';
import { emailAccountKeys } from './get-email-accounts';

/** POST /api/user/delEmailAccount: the accounts and their mail. */
export function deleteEmailAccounts(ids: number[]): Promise<{ deleted: number }> {
  return apiPost<{ deleted: number }>('/user/delEmailAccount', { ids });
}

export function useDeleteEmailAccounts(onSuccess?: (result: { deleted: number }) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteEmailAccounts,
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: emailAccountKeys.all });
      onSuccess?.(result);
    },
  });
}
