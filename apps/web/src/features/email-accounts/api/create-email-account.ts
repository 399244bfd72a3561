import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateEmailAccountBody, EmailAccount } from '@youju/contract';
import { apiPost } from '../../../lib/http';
import { emailAccountKeys } from './get-email-accounts';

/** POST /api/user/createEmailAccount */
export function createEmailAccount(body: CreateEmailAccountBody): Promise<EmailAccount> {
  return apiPost<EmailAccount>('/user/createEmailAccount', body);
}

export function useCreateEmailAccount(onSuccess?: (account: EmailAccount) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createEmailAccount,
    onSuccess: async (account) => {
      await queryClient.invalidateQueries({ queryKey: emailAccountKeys.all });
      onSuccess?.(account);
    },
  });
}
