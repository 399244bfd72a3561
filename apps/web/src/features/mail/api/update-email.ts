import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MailDetail, MailItem } from '@youju/contract';
import { apiPost } from '../../../lib/http';
import { invalidateMailLists, mailKeys } from './get-inbox';

export interface UpdateEmailInput {
  id: number;
  starred?: boolean;
  spam?: boolean;
}

/** POST /api/user/updateEmail: star or flag a message as spam. */
export function updateEmail(body: UpdateEmailInput): Promise<MailItem> {
  return apiPost<MailItem>('/user/updateEmail', body);
}

export function useUpdateEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateEmail,
    onSuccess: async (item) => {
      // The open message takes the new flags as they are; fetching it again would mark it read.
      queryClient.setQueryData<MailDetail>(mailKeys.detail(item.id), (detail) =>
        detail ? { ...detail, starred: item.starred, spam: item.spam } : detail,
      );
      await invalidateMailLists(queryClient);
    },
  });
}
