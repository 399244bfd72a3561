import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EditSysAccountBody, SysAccount } from '@youju/contract';
import { callApi } from '../../../lib/api-error';
import { getSysAccountsQueryOptions } from './get-sys-accounts';

/** POST /api/admin/editSysAccount: only the fields present change. */
export function editSysAccount(body: EditSysAccountBody): Promise<SysAccount> {
  return callApi<SysAccount>({ method: 'POST', url: '/admin/editSysAccount', data: body });
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
