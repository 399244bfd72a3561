import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/http';
import { invalidateMailLists, mailKeys } from './get-inbox';

/** POST /api/user/delEmail: delete messages by id. */
export function deleteEmails(ids: number[]): Promise<{ deleted: number }> {
  return apiPost<{ deleted: number }>('/user/delEmail', { ids });
}

/**
 * The same call sent so that it outlives the page (fetch `keepalive`): a deletion still waiting out
 * its undo time goes with it when the page is left or hidden.
 */
export function deleteEmailsKeepalive(ids: number[]): Promise<{ deleted: number }> {
  return apiPost<{ deleted: number }>('/user/delEmail', { ids }, { keepalive: true });
}

export function useDeleteEmails(onSuccess?: (deleted: number) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteEmails,
    onSuccess: async ({ deleted }, ids) => {
      for (const id of ids) queryClient.removeQueries({ queryKey: mailKeys.detail(id) });
      await invalidateMailLists(queryClient);
      onSuccess?.(deleted);
    },
  });
}
