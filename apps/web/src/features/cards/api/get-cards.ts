import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Card, CardStatus, PageOf } from '@youju/contract';
import { apiGet } from '../../../lib/http';

export interface CardListParams {
  page: number;
  pageSize: number;
  status?: CardStatus;
  batchId?: string;
}

/** Every query of this feature lives under ['cards'], so one invalidation refreshes them all. */
export const cardKeys = {
  all: ['cards'] as const,
  list: (params: CardListParams) => [...cardKeys.all, 'list', params] as const,
  batches: () => [...cardKeys.all, 'batches'] as const,
};

/** GET /api/user/getCard: one page of the caller's cards, by status or batch. */
export function getCards(params: CardListParams): Promise<PageOf<Card>> {
  return apiGet<PageOf<Card>>('/user/getCard', params);
}

export function getCardsQueryOptions(params: CardListParams) {
  return queryOptions({
    queryKey: cardKeys.list(params),
    queryFn: () => getCards(params),
    placeholderData: keepPreviousData,
  });
}

export function useCards(params: CardListParams) {
  return useQuery(getCardsQueryOptions(params));
}
