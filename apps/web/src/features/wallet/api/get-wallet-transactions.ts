import type { WalletTransactionPage } from '@portal/contract/wallet';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { filterQuery } from '../lib/transaction-filters.ts';
import { type TransactionListParams, walletKeys } from './wallet-keys.ts';

/** GET /api/v1/balance/transactions: one page of the wallet's transactions, newest first, filtered. */
export const getWalletTransactions = ({ filters, page, pageSize }: TransactionListParams) =>
  http.get<WalletTransactionPage>('/api/v1/balance/transactions', {
    params: { ...filterQuery(filters), page, page_size: pageSize },
  });

export const getWalletTransactionsQueryOptions = (params: TransactionListParams) =>
  queryOptions({
    queryKey: walletKeys.transactionList(params),
    queryFn: () => getWalletTransactions(params),
    staleTime: 0,
    refetchOnWindowFocus: true,
  });

/** The list keeps showing the previous page while the next one loads. */
export const useWalletTransactions = (params: TransactionListParams) =>
  useQuery({ ...getWalletTransactionsQueryOptions(params), placeholderData: keepPreviousData });
