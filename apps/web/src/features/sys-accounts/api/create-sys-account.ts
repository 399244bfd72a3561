import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateSysAccountBody, SysAccount } from '@youju/contract';
import { callApi } from '../../../lib/api-error';
import { getSysAccountsQueryOptions } from './get-sys-accounts';

/** POST /api/admin/createSysAccount */
export function createSysAccount(body: CreateSysAccountBody): Promise<SysAccount> {
  return callApi<SysAccount>({ method: 'POST', url: '/admin/createSysAccount', data: body });
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
