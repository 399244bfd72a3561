import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ImportEmailAccountData } from '@youju/contract';
import { utcOffsetMinutes } from '../../../lib/dates';
import { apiPost } from '../../../lib/http';
import { emailAccountKeys } from './get-email-accounts';

/** POST /api/user/importEmailAccount with the CSV file's text: a result per row. */
export function importEmailAccounts(csv: string): Promise<ImportEmailAccountData> {
  return apiPost<ImportEmailAccountData>('/user/importEmailAccount', {
    csv,
    utcOffsetMinutes: utcOffsetMinutes(),
  });
}

export function useImportEmailAccounts(onSuccess?: (result: ImportEmailAccountData) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importEmailAccounts,
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: emailAccountKeys.all });
      onSuccess?.(result);
    },
  });
}
