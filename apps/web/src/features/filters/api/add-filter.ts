import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Filter, NewFilter } from '@youju/contract';
import { apiPost } from '../../../lib/http';
import { filterKeys } from './get-filters';

/** POST /api/user/addFilter: a bad or too slow regular expression is refused with a Chinese message. */
export function addFilter(body: NewFilter): Promise<Filter> {
  return apiPost<Filter>('/user/addFilter', body);
}

/** The dialog shows the server's reason itself (next to the pattern), so the failure stays silent here. */
export function useAddFilter(onSuccess?: (filter: Filter) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addFilter,
    meta: { silent: true },
    onSuccess: async (filter) => {
      await queryClient.invalidateQueries({ queryKey: filterKeys.all });
      onSuccess?.(filter);
    },
  });
}
