import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/http';
import { invalidateMailLists } from './get-inbox';

export interface SetReadInput {
  ids: number[];
  read: boolean;
}

/** POST /api/user/setReadEmail: mark messages read or unread. */
export function setRead(body: SetReadInput): Promise<unknown> {
  return apiPost('/user/setReadEmail', body);
}

export function useSetRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setRead,
    onSuccess: () => invalidateMailLists(queryClient),
  });
}
