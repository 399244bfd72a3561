import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-error';
import { invalidateMailLists } from './get-inbox';

export interface DeleteTimeRangeInput {
  /** ISO 8601 */
  start: string;
  end: string;
  address?: string;
}

/** POST /api/user/deleteEmailsInTimeRange: delete mail received between two times. */
export function deleteTimeRange(body: DeleteTimeRangeInput): Promise<{ deleted: number }> {
  return callApi<{ deleted: number }>({ method: 'POST', url: '/user/deleteEmailsInTimeRange', data: body });
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
