import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EditSysAccountBody, SysAccount } from '@youju/contract';
import { apiPost } from '../../../lib/http';
import { getSysAccountsQueryOptions } from './get-sys-accounts';

/** POST /api/admin/editSysAccount: only the fields present change. */
export function editSysAccount(body: EditSysAccountBody): Promise<SysAccount> {
  return apiPost<SysAccount>('/admin/editSysAccount', body);
}

export function useEditSysAccount(onSuccess?: (account: SysAccount) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: editSysAccount,
    onSuccess: async (account) => {
      await queryClient.invalidateQueries({ queryKey: getSysAccountsQueryOptions().queryKey });
      onSuccess?.(account);
    },
  });
}
