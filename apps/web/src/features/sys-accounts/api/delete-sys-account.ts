import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/http';
import { getSysAccountsQueryOptions } from './get-sys-accounts';

/** POST /api/admin/delSysAccount */
export function deleteSysAccount(id: number): Promise<unknown> {
  return apiPost('/admin/delSysAccount', { id });
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
