import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as spendingCalls from '../../../lib/generated/spending-calls.ts';
import { type CardTransactionParams, cardTransactionQueryOf } from '../../../domain/cards/lib/card-transaction-filters.ts';
import { cardKeys } from '../../../domain/cards/api/card-keys.ts';

/** GET /card/:id/transactions: one page of a card's transactions, newest first. */
export const getCardTransactions = (id: string, params: CardTransactionParams) =>
  call(spendingCalls.transactions, { params: { id }, query: cardTransactionQueryOf(params) });

export const getCardTransactionsQueryOptions = (id: string, params: CardTransactionParams) =>
  queryOptions({ queryKey: cardKeys.transactions(id, params), queryFn: () => getCardTransactions(id, params), staleTime: 0 });

export const useCardTransactions = (id: string, params: CardTransactionParams, enabled = true) =>
  useQuery({ ...getCardTransactionsQueryOptions(id, params), placeholderData: keepPreviousData, enabled });
