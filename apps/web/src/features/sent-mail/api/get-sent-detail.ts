import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SentDetail } from '@youju/contract';
import { apiGet } from '../../../lib/http';
import { inFlight, sentKeys } from './get-sent';

/** GET /api/user/getSentDetail?id=: one sent message as written, with its deliveries. */
export function getSentDetail(id: number): Promise<SentDetail> {
  return apiGet<SentDetail>('/user/getSentDetail', { id });
}

export function getSentDetailQueryOptions(id: number) {
  return queryOptions({
    queryKey: sentKeys.detail(id),
    queryFn: () => getSentDetail(id),
    refetchInterval: (query) => (query.state.data && inFlight(query.state.data) ? 3000 : false),
  });
}

export function useSentDetail(id: number | null) {
  return useQuery({ ...getSentDetailQueryOptions(id ?? 0), enabled: id !== null });
}
