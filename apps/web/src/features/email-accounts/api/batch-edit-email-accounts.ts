import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BatchEditEmailAccountBody } from '@youju/contract';
import { callApi } from '../../../lib/api-error';
import { emailAccountKeys } from './get-email-accounts';

/** POST /api/user/batchEditEmailAccount: all selected change, or none. */
export function batchEditEmailAccounts(body: BatchEditEmailAccountBody): Promise<{ updated: number }> {
  return callApi<{ updated: number }>({ method: 'POST', url: '/user/batchEditEmailAccount', data: body });
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
