import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateSysAccountBody, SysAccount } from '@youju/contract';
import { apiPost } from '../../../lib/http';
import { getSysAccountsQueryOptions } from './get-sys-accounts';

/** POST /api/admin/createSysAccount */
export function createSysAccount(body: CreateSysAccountBody): Promise<SysAccount> {
  return apiPost<SysAccount>('/admin/createSysAccount', body);
}

export function useCreateSysAccount(onSuccess?: (account: SysAccount) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSysAccount,
    onSuccess: async (account) => {
      await queryClient.invalidateQueries({ queryKey: getSysAccountsQueryOptions().queryKey });
      onSuccess?.(account);
    },
  });
}
