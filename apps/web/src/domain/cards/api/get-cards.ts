import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as cardCalls from '../../../lib/generated/cards-calls.ts';
import { type CardListParams, cardListQueryOf } from '../lib/card-filters.ts';
import { cardKeys } from './card-keys.ts';

/** GET /card: one page of the account's cards, newest first, filtered by status, product and keyword. */
export const getCards = (params: CardListParams) => call(cardCalls.list, { query: cardListQueryOf(params) });

export const getCardsQueryOptions = (params: CardListParams) =>
  queryOptions({ queryKey: cardKeys.list(params), queryFn: () => getCards(params), staleTime: 0, refetchOnWindowFocus: true });

/** The list keeps showing the previous page while the next one loads. */
export const useCards = (params: CardListParams) => useQuery({ ...getCardsQueryOptions(params), placeholderData: keepPreviousData });
