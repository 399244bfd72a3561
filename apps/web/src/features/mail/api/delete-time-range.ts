import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/http';
import { invalidateMailLists } from './get-inbox';

export interface DeleteTimeRangeInput {
  /** ISO 8601 */
  start: string;
  end: string;
  address?: string;
}

/** POST /api/user/deleteEmailsInTimeRange: delete mail received between two times. */
export function deleteTimeRange(body: DeleteTimeRangeInput): Promise<{ deleted: number }> {
  return apiPost<{ deleted: number }>('/user/deleteEmailsInTimeRange', body);
}

export function useDeleteTimeRange(onSuccess?: (deleted: number) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTimeRange,
    onSuccess: async ({ deleted }) => {
      await invalidateMailLists(queryClient);
      onSuccess?.(deleted);
    },
  });
}
