import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CardBatch } from '@youju/contract';
import { apiGet } from '../../../lib/http';
import { cardKeys } from './get-cards';

/** GET /api/user/getCardBatches: the caller's generation batches, newest first. */
export function getCardBatches(): Promise<CardBatch[]> {
  return apiGet<CardBatch[]>('/user/getCardBatches');
}

export function getCardBatchesQueryOptions() {
  return queryOptions({ queryKey: cardKeys.batches(), queryFn: getCardBatches });
}

export function useCardBatches() {
  return useQuery(getCardBatchesQueryOptions());
}
