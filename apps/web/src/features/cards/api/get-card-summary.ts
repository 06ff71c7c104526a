import type { CardSummaryAnswer } from '@portal/contract/cards';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { cardKeys } from './card-keys.ts';

/** GET /api/v1/card/summary: how many cards per status, and what the cards hold per currency. */
export const getCardSummary = () => http.get<CardSummaryAnswer>('/api/v1/card/summary');

export const getCardSummaryQueryOptions = () =>
  queryOptions({ queryKey: cardKeys.summary(), queryFn: getCardSummary, staleTime: 0, refetchOnWindowFocus: true });

export const useCardSummary = () => useQuery(getCardSummaryQueryOptions());
