import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreatedAddress, CreateEmailBody } from '@youju/contract';
import { addressQueryKeys } from '../../../api/get-addresses';
import { apiPost } from '../../../lib/http';

/** POST /api/user/createEmail: a new address, random when no local part is given. */
export function createAddress(body: CreateEmailBody): Promise<CreatedAddress> {
  return apiPost<CreatedAddress>('/user/createEmail', body);
}

export function useCreateAddress(onSuccess?: (created: CreatedAddress) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAddress,
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: addressQueryKeys.all });
      onSuccess?.(created);
    },
  });
}
