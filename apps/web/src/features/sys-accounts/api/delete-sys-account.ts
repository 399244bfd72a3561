import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-error';
import { getSysAccountsQueryOptions } from './get-sys-accounts';

/** POST /api/admin/delSysAccount */
export function deleteSysAccount(id: number): Promise<unknown> {
  return callApi({ method: 'POST', url: '/admin/delSysAccount', data: { id } });
}

export function useDeleteSysAccount(onSuccess?: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSysAccount,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: getSysAccountsQueryOptions().queryKey });
      onSuccess?.();
    },
  });
}
