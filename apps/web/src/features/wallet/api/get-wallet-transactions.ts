import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as walletCalls from '../../../lib/generated/wallet-calls.ts';
import { type TransactionListParams, transactionListQueryOf, walletKeys } from './wallet-keys.ts';

/** GET /balance/transactions: one page of the wallet's transactions, newest first, filtered. */
export const getWalletTransactions = (params: TransactionListParams) => call(walletCalls.transactions, { query: transactionListQueryOf(params) });

export const getWalletTransactionsQueryOptions = (params: TransactionListParams) =>
  queryOptions({
    queryKey: walletKeys.transactionList(params),
    queryFn: () => getWalletTransactions(params),
    staleTime: 0,
    refetchOnWindowFocus: true,
  });

/** The list keeps showing the previous page while the next one loads; not asked by a role that may not read it. */
export const useWalletTransactions = (params: TransactionListParams, enabled = true) =>
  useQuery({ ...getWalletTransactionsQueryOptions(params), placeholderData: keepPreviousData, enabled });
