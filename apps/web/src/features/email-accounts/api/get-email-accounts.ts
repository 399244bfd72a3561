import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { EmailAccount, PageOf } from '@youju/contract';
import { apiGet } from '../../../lib/http';

/** What the table asks for: a page, the search text and the filters. */
export interface EmailAccountListParams {
  page: number;
  pageSize: number;
  content?: string;
  enabled?: boolean;
  expired?: boolean;
}

/** Every query of this feature lives under ['email-accounts'], so one invalidation refreshes them all. */
export const emailAccountKeys = {
  all: ['email-accounts'] as const,
  list: (params: EmailAccountListParams) => [...emailAccountKeys.all, 'list', params] as const,
};

/**
 * GET /api/user/getEmailAccount, or searchEmailAccount?content= when there is search text: one page of
 * the caller's mailbox accounts.
 */
export function getEmailAccounts(params: EmailAccountListParams): Promise<PageOf<EmailAccount>> {
  const content = params.content?.trim();
  const url = content ? '/user/searchEmailAccount' : '/user/getEmailAccount';
  return apiGet<PageOf<EmailAccount>>(url, { ...params, content: content || undefined });
}

export function getEmailAccountsQueryOptions(params: EmailAccountListParams) {
  return queryOptions({
    queryKey: emailAccountKeys.list(params),
    queryFn: () => getEmailAccounts(params),
    placeholderData: keepPreviousData,
  });
}

export function useEmailAccounts(params: EmailAccountListParams) {
  return useQuery(getEmailAccountsQueryOptions(params));
}
