import type { CardPage } from '@portal/contract/cards';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { type CardListParams, cardListQueryOf } from '../lib/card-filters.ts';
import { cardKeys } from './card-keys.ts';

/** GET /api/v1/card: one page of the account's cards, newest first, filtered by status, product and keyword. */
export const getCards = (params: CardListParams) => http.get<CardPage>('/api/v1/card', { params: cardListQueryOf(params) });

export const getCardsQueryOptions = (params: CardListParams) =>
  queryOptions({ queryKey: cardKeys.list(params), queryFn: () => getCards(params), staleTime: 0, refetchOnWindowFocus: true });

/** The list keeps showing the previous page while the next one loads. */
export const useCards = (params: CardListParams) => useQuery({ ...getCardsQueryOptions(params), placeholderData: keepPreviousData });
