import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ImportEmailAccountData } from '@youju/contract';
import { callApi } from '../../../lib/api-error';
import { utcOffsetMinutes } from '../../../lib/download';
import { emailAccountKeys } from './get-email-accounts';

/** POST /api/user/importEmailAccount with the CSV file's text: a result per row. */
export function importEmailAccounts(csv: string): Promise<ImportEmailAccountData> {
  return callApi<ImportEmailAccountData>({
    method: 'POST',
    url: '/user/importEmailAccount',
    data: { csv, utcOffsetMinutes: utcOffsetMinutes() },
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
