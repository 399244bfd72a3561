import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreatedAddress, CreateEmailBody } from '@youju/contract';
import { callApi } from '../../../lib/api-error';
import { mailKeys } from './get-inbox';

/** POST /api/user/createEmail: a new address, random when no local part is given. */
export function createAddress(body: CreateEmailBody): Promise<CreatedAddress> {
  return callApi<CreatedAddress>({ method: 'POST', url: '/user/createEmail', data: body });
}

export function useCreateAddress(onSuccess?: (created: CreatedAddress) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAddress,
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: mailKeys.addresses() });
      onSuccess?.(created);
    },
  });
}
