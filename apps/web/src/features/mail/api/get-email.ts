import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MailDetail } from '@youju/contract';
import { useEffect } from 'react';
import { apiGet } from '../../../lib/http';
import { invalidateMailLists, mailKeys } from './get-inbox';

/** GET /api/user/getEmail?id=: one message with sanitised HTML; the server marks it read. */
export function getEmail(id: number): Promise<MailDetail> {
  return apiGet<MailDetail>('/user/getEmail', { id });
}

export function getEmailQueryOptions(id: number) {
  return queryOptions({ queryKey: mailKeys.detail(id), queryFn: () => getEmail(id), staleTime: Infinity });
}

/** The open message. Opening it marked it read on the server, so the lists and counts follow. */
export function useEmail(id: number | null) {
  const queryClient = useQueryClient();
  const query = useQuery({ ...getEmailQueryOptions(id ?? 0), enabled: id !== null });
  const loadedAt = query.dataUpdatedAt;
  useEffect(() => {
    if (loadedAt > 0) void invalidateMailLists(queryClient);
  }, [loadedAt, queryClient]);
  return query;
}
