import { keepPreviousData, type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import type { InboxQuery, MailItem, PageOf } from '@youju/contract';
import { addressQueryKeys } from '../../../api/get-addresses';
import { apiGet } from '../../../lib/http';

/** GET /api/user/getInbox: one page of received mail, newest first. */
export function getInbox(query: InboxQuery): Promise<PageOf<MailItem>> {
  return apiGet<PageOf<MailItem>>('/user/getInbox', query);
}

/** Every query of the mail feature lives under ['mail']; the address list is the shared one. */
export const mailKeys = {
  all: ['mail'] as const,
  inboxes: () => [...mailKeys.all, 'inbox'] as const,
  inbox: (query: InboxQuery) => [...mailKeys.inboxes(), query] as const,
  detail: (id: number) => [...mailKeys.all, 'detail', id] as const,
  unread: () => [...mailKeys.all, 'unread'] as const,
  raw: (id: number) => [...mailKeys.all, 'raw', id] as const,
  inlineImage: (path: string) => [...mailKeys.all, 'inline-image', path] as const,
};

/**
 * Refreshes what a change to the mailbox touches: lists, unread counts, addresses. Open messages are
 * left alone, because a deleted one would be fetched again only to answer 404.
 */
export function invalidateMailLists(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: mailKeys.inboxes() }),
    queryClient.invalidateQueries({ queryKey: mailKeys.unread() }),
    queryClient.invalidateQueries({ queryKey: addressQueryKeys.all }),
  ]);
}

/** Leaves out empty filters so that the query key and the URL stay short and stable. */
export function cleanInboxQuery(query: InboxQuery): InboxQuery {
  const clean: InboxQuery = { page: query.page ?? 1, pageSize: query.pageSize ?? 20 };
  if (query.address) clean.address = query.address;
  if (query.unread) clean.unread = true;
  if (query.starred) clean.starred = true;
  if (query.folder === 'junk') clean.folder = 'junk';
  const text = query.q?.trim();
  if (text) clean.q = text;
  return clean;
}

export function getInboxQueryOptions(query: InboxQuery) {
  const clean = cleanInboxQuery(query);
  return queryOptions({
    queryKey: mailKeys.inbox(clean),
    queryFn: () => getInbox(clean),
    // Paging and new mail keep the old page on screen until the new one arrives.
    placeholderData: keepPreviousData,
  });
}

export function useInbox(query: InboxQuery) {
  return useQuery(getInboxQueryOptions(query));
}
