import type { TransactionFilters } from '../lib/transaction-filters.ts';

/** What one page of the wallet's transaction list asks for. */
export interface TransactionListParams {
  filters: TransactionFilters;
  page: number;
  pageSize: number;
}

/** Query keys of the wallet. */
export const walletKeys = {
  all: ['wallet'] as const,
  balances: () => [...walletKeys.all, 'balances'] as const,
  status: () => [...walletKeys.all, 'status'] as const,
  cardAmount: () => [...walletKeys.all, 'card-amount'] as const,
  transactionLists: () => [...walletKeys.all, 'transactions'] as const,
  transactionList: (params: TransactionListParams) => [...walletKeys.transactionLists(), params] as const,
};
