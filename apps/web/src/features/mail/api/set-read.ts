import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-error';
import { invalidateMailLists } from './get-inbox';

export interface SetReadInput {
  ids: number[];
  read: boolean;
}

/** POST /api/user/setReadEmail: mark messages read or unread. */
export function setRead(body: SetReadInput): Promise<unknown> {
  return callApi({ method: 'POST', url: '/user/setReadEmail', data: body });
}

export function useSetRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setRead,
    onSuccess: () => invalidateMailLists(queryClient),
  });
}
