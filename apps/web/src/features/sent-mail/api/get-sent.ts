import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { PageOf, SentItem } from '@youju/contract';
import { apiGet } from '../../../lib/http';

/** GET /api/user/getSentEmail: the caller's sent mail, newest first, with per-recipient deliveries. */
export function getSent(page: number, pageSize: number): Promise<PageOf<SentItem>> {
  return apiGet<PageOf<SentItem>>('/user/getSentEmail', { page, pageSize });
}

export const sentKeys = {
  all: ['sent'] as const,
  list: (page: number, pageSize: number) => [...sentKeys.all, 'list', page, pageSize] as const,
  detail: (id: number) => [...sentKeys.all, 'detail', id] as const,
};

/** Still on its way: worth asking again soon. */
export function inFlight(item: SentItem): boolean {
  return item.deliveries.some((delivery) => ['queued', 'sending', 'retrying'].includes(delivery.status));
}

export function getSentQueryOptions(page: number, pageSize: number) {
  return queryOptions({
    queryKey: sentKeys.list(page, pageSize),
    queryFn: () => getSent(page, pageSize),
    placeholderData: keepPreviousData,
    // While something is queued or being sent, the list follows the queue every 3 seconds.
    refetchInterval: (query) => (query.state.data?.list.some(inFlight) ? 3000 : false),
  });
}

export function useSent(page: number, pageSize: number) {
  return useQuery(getSentQueryOptions(page, pageSize));
}
