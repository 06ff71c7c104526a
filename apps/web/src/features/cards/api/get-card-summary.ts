import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as cardCalls from '../../../lib/generated/cards-calls.ts';
import { cardKeys } from '../../../domain/cards/api/card-keys.ts';

/** GET /card/summary: how many cards per status, and what the cards hold per currency. */
export const getCardSummary = () => call(cardCalls.summary);

export const getCardSummaryQueryOptions = () =>
  queryOptions({ queryKey: cardKeys.summary(), queryFn: getCardSummary, staleTime: 0, refetchOnWindowFocus: true });

export const useCardSummary = () => useQuery(getCardSummaryQueryOptions());
