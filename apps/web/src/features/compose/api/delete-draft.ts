import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/http';
import { draftKeys } from './get-drafts';

/** POST /api/user/deleteDraft: removes the draft from its mailbox's Drafts folder. */
export function deleteDraft(id: number): Promise<void> {
  return apiPost<void>('/user/deleteDraft', { id });
}

export function useDeleteDraft() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDraft,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: draftKeys.all }),
  });
}
