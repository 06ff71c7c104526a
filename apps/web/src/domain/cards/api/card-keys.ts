import type { CardListParams } from '../lib/card-filters.ts';
import type { CardTransactionParams } from '../lib/card-transaction-filters.ts';

/** Query keys of the cards feature. */
export const cardKeys = {
  all: ['cards'] as const,
  verification: () => [...cardKeys.all, 'verification'] as const,
  /** what the account may open now, and whether it has given its verification data */
  openedAvailable: () => [...cardKeys.all, 'opened-available'] as const,
  summary: () => [...cardKeys.all, 'summary'] as const,
  lists: () => [...cardKeys.all, 'list'] as const,
  list: (params: CardListParams) => [...cardKeys.lists(), params] as const,
  details: () => [...cardKeys.all, 'detail'] as const,
  /** one card; its transactions sit below it, so what refreshes the card refreshes them too */
  detail: (id: string) => [...cardKeys.details(), id] as const,
  transactionLists: (id: string) => [...cardKeys.detail(id), 'transactions'] as const,
  transactions: (id: string, params: CardTransactionParams) => [...cardKeys.transactionLists(id), params] as const,
  /** the card's limits, categories and countries, with what was spent against the limits */
  controls: (id: string) => [...cardKeys.detail(id), 'controls'] as const,
  /** the wallet as the card screens read it: what a card can be opened or topped up from */
  wallet: () => [...cardKeys.all, 'wallet'] as const,
  walletBalances: () => [...cardKeys.wallet(), 'balances'] as const,
  walletStatus: () => [...cardKeys.wallet(), 'status'] as const,
  /** the account's running batch, else its latest (GET /card/batch-create-card-status) */
  batchStatus: () => [...cardKeys.all, 'batch-status'] as const,
  exports: () => [...cardKeys.all, 'exports'] as const,
  exportList: () => [...cardKeys.exports(), 'list'] as const,
  exportStatus: (id: string) => [...cardKeys.exports(), 'status', id] as const,
};
