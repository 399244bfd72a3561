import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SaveDraftBody, SaveDraftData } from '@youju/contract';
import { apiPost } from '../../../lib/http';
import { draftKeys } from './get-drafts';

/**
 * POST /api/user/saveDraft: creates a draft, or replaces `id` with a new one; the answer's id is
 * the one to send next time (and with sendEmail, which then removes the draft).
 */
export function saveDraft(body: SaveDraftBody): Promise<SaveDraftData> {
  return apiPost<SaveDraftData>('/user/saveDraft', body);
}

/** Autosave shows its own status line in the drawer, so failures stay silent here. */
export function useSaveDraft() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveDraft,
    meta: { silent: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: draftKeys.all }),
  });
}
