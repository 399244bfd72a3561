import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SaveDraftBody, SaveDraftData } from '@youju/contract';
import { apiPost, requestEnvelope } from '../../../lib/http';
import { draftKeys } from './get-drafts';

/**
 * POST /api/user/saveDraft: creates a draft, or replaces `id` with a new one; the answer's id is
 * the one to send next time (and with sendEmail, which then removes the draft).
 */
export function saveDraft(body: SaveDraftBody): Promise<SaveDraftData> {
  return apiPost<SaveDraftData>('/user/saveDraft', body);
}

/**
 * The last save while the page is being left (reload, tab closed): a keepalive request the browser
 * finishes after the page is gone, with no answer to wait for. Browsers take such bodies up to
 * 64 KiB; a larger one is simply not sent (the autosave before it stays).
 */
export function saveDraftOnLeave(body: SaveDraftBody): void {
  requestEnvelope({ method: 'POST', url: '/user/saveDraft', data: body, keepalive: true }).catch(() => {});
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
