import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DraftItem, PageOf } from '@youju/contract';
import { apiGet } from '../../../lib/http';

export const draftKeys = {
  all: ['drafts'] as const,
  list: () => [...draftKeys.all, 'list'] as const,
  detail: (id: number) => [...draftKeys.all, 'detail', id] as const,
};

/** GET /api/user/draftList: the caller's drafts (its mailboxes' Drafts folders), newest first. */
export function getDrafts(): Promise<PageOf<DraftItem>> {
  return apiGet<PageOf<DraftItem>>('/user/draftList', { page: 1, pageSize: 20 });
}

export function getDraftsQueryOptions() {
  return queryOptions({ queryKey: draftKeys.list(), queryFn: getDrafts, staleTime: 0 });
}

export function useDrafts(enabled = true) {
  return useQuery({ ...getDraftsQueryOptions(), enabled });
}
