import * as walletCalls from '../../../lib/generated/wallet-calls.ts';
import { answersOf, queryKeyOf } from '../../../lib/query-keys.ts';
import { filterQuery, type TransactionFilters } from '../lib/transaction-filters.ts';

/** What one page of the wallet's transaction list asks for. */
export interface TransactionListParams {
  filters: TransactionFilters;
  page: number;
  pageSize: number;
}

/** The query of GET /balance/transactions for one page. */
export const transactionListQueryOf = ({ filters, page, pageSize }: TransactionListParams) => ({ ...filterQuery(filters), page, page_size: pageSize });

/** The wallet's answers; each is keyed by its call (lib/query-keys.ts), the balances' in domain/wallet. */
export const walletKeys = {
  cardAmount: () => queryKeyOf(walletCalls.cardAmount),
  transactionList: (params: TransactionListParams) => queryKeyOf(walletCalls.transactions, { query: transactionListQueryOf(params) }),
  /** everything the wallet screen reads, and whether the wallet can pay */
  all: () => answersOf(walletCalls.balances, walletCalls.status, walletCalls.cardAmount, walletCalls.transactions),
  /** what money moving in or out changes: the balances, what is on the cards, the records */
  moved: () => answersOf(walletCalls.balances, walletCalls.cardAmount, walletCalls.transactions),
};
