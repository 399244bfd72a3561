import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BatchEditEmailAccountBody } from '@youju/contract';
import { apiPost } from '../../../lib/http';
import { emailAccountKeys } from './get-email-accounts';

/** POST /api/user/batchEditEmailAccount: all selected change, or none. */
export function batchEditEmailAccounts(body: BatchEditEmailAccountBody): Promise<{ updated: number }> {
  return apiPost<{ updated: number }>('/user/batchEditEmailAccount', body);
}

export function useBatchEditEmailAccounts(onSuccess?: (result: { updated: number }) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: batchEditEmailAccounts,
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: emailAccountKeys.all });
      onSuccess?.(result);
    },
  });
}
