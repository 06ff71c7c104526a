import type { CardTransactionPage } from '@portal/contract/cards';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { type CardTransactionParams, cardTransactionQueryOf } from '../lib/card-transaction-filters.ts';
import { cardKeys } from './card-keys.ts';

/** GET /api/v1/card/{id}/transactions: one page of a card's transactions, newest first. */
export const getCardTransactions = (id: string, params: CardTransactionParams) =>
  http.get<CardTransactionPage>(`/api/v1/card/${encodeURIComponent(id)}/transactions`, { params: cardTransactionQueryOf(params) });

export const getCardTransactionsQueryOptions = (id: string, params: CardTransactionParams) =>
  queryOptions({ queryKey: cardKeys.transactions(id, params), queryFn: () => getCardTransactions(id, params), staleTime: 0 });

export const useCardTransactions = (id: string, params: CardTransactionParams, enabled = true) =>
  useQuery({ ...getCardTransactionsQueryOptions(id, params), placeholderData: keepPreviousData, enabled });
