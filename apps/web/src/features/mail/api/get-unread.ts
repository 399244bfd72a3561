import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UnreadData } from '@youju/contract';
import { callApi } from '../../../lib/api-error';
import { mailKeys } from './get-inbox';

/** GET /api/user/getUnreadEmail: unread counts, in total and per address. */
export function getUnread(): Promise<UnreadData> {
  return callApi<UnreadData>({ method: 'GET', url: '/user/getUnreadEmail' });
}

export function getUnreadQueryOptions() {
  return queryOptions({ queryKey: mailKeys.unread(), queryFn: getUnread });
}

export function useUnread() {
  return useQuery(getUnreadQueryOptions());
}
