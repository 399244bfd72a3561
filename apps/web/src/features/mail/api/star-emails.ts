import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/http';
import { invalidateMailLists } from './get-inbox';

export interface StarEmailsInput {
  ids: number[];
  starred: boolean;
}

/** POST /api/user/starEmail: star or unstar several messages; `updated` counts the changed ones. */
export function starEmails(body: StarEmailsInput): Promise<{ updated: number }> {
  return apiPost<{ updated: number }>('/user/starEmail', body);
}

export function useStarEmails() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: starEmails,
    onSuccess: () => invalidateMailLists(queryClient),
  });
}
