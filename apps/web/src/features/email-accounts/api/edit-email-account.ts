import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EditEmailAccountBody, EmailAccount } from '@youju/contract';
import { apiPost } from '../../../lib/http';
import { emailAccountKeys } from './get-email-accounts';

/** POST /api/user/editEmailAccount: only the fields present change. */
export function editEmailAccount(body: EditEmailAccountBody): Promise<EmailAccount> {
  return apiPost<EmailAccount>('/user/editEmailAccount', body);
}

export function useEditEmailAccount(onSuccess?: (account: EmailAccount) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: editEmailAccount,
    onSuccess: async (account) => {
      await queryClient.invalidateQueries({ queryKey: emailAccountKeys.all });
      onSuccess?.(account);
    },
  });
}
