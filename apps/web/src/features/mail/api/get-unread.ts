import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UnreadData } from '@youju/contract';
import { apiGet } from '../../../lib/http';
import { mailKeys } from './get-inbox';

/** GET /api/user/getUnreadEmail: unread counts, in total and per address. */
export function getUnread(): Promise<UnreadData> {
  return apiGet<UnreadData>('/user/getUnreadEmail');
}

export function getUnreadQueryOptions() {
  return queryOptions({ queryKey: mailKeys.unread(), queryFn: getUnread });
}

export function useUnread() {
  return useQuery(getUnreadQueryOptions());
}
