import * as cardBatchCalls from '../../../lib/generated/card-batches-calls.ts';
import * as cardCalls from '../../../lib/generated/cards-calls.ts';
import * as balanceRuleCalls from '../../../lib/generated/balance-rules-calls.ts';
import * as spendingCalls from '../../../lib/generated/spending-calls.ts';
import * as walletCalls from '../../../lib/generated/wallet-calls.ts';
import { answersOf, answersUnder, queryKeyOf } from '../../../lib/query-keys.ts';
import { type CardListParams, cardListQueryOf } from '../lib/card-filters.ts';
import { type CardTransactionParams, cardTransactionQueryOf } from '../lib/card-transaction-filters.ts';

/**
 * The card screens' answers, each keyed by its call (lib/query-keys.ts); a key without its query
 * names every page of a list, one without its id every card. The wallet they pay from is keyed in
 * domain/wallet.
 */
export const cardKeys = {
  verification: () => queryKeyOf(cardCalls.verification),
  /** what the account may open now, and whether it has given its verification data */
  openedAvailable: () => queryKeyOf(cardCalls.openedAvailable),
  summary: () => queryKeyOf(cardCalls.summary),
  /** the tags on the cards the member sees, with their counts */
  tags: () => queryKeyOf(cardCalls.tagCounts),
  lists: () => queryKeyOf(cardCalls.list),
  list: (params: CardListParams) => queryKeyOf(cardCalls.list, { query: cardListQueryOf(params) }),
  details: () => queryKeyOf(cardCalls.detail),
  detail: (id: string) => queryKeyOf(cardCalls.detail, { params: { id } }),
  transactionLists: (id: string) => queryKeyOf(spendingCalls.transactions, { params: { id } }),
  transactions: (id: string, params: CardTransactionParams) => queryKeyOf(spendingCalls.transactions, { params: { id }, query: cardTransactionQueryOf(params) }),
  /** the card's limits, categories and countries, with what was spent against the limits */
  controls: (id: string) => queryKeyOf(spendingCalls.controls, { params: { id } }),
  /** the card's auto top-up rule, what it put on the card today and its latest run */
  autoRecharge: (id: string) => queryKeyOf(balanceRuleCalls.autoRecharge, { params: { id } }),
  /** the account's auto top-up rules per tag */
  tagAutoRecharge: () => queryKeyOf(balanceRuleCalls.tagAutoRecharge),
  /** the account's running batch, else its latest */
  batchStatus: () => queryKeyOf(cardBatchCalls.status),
  exportList: () => queryKeyOf(cardBatchCalls.exports),
  exportStatus: (id: string) => queryKeyOf(cardBatchCalls.exportStatus, { query: { export_id: id } }),
};

/** Groups of the card screens' answers: what one change or one 刷新 reads again, or what shows a spinner. */
export const cardAnswers = {
  /** everything the card screens read, the wallet they pay from included */
  all: () =>
    answersOf(
      cardCalls.verification,
      cardCalls.openedAvailable,
      cardCalls.summary,
      cardCalls.tagCounts,
      cardCalls.list,
      cardCalls.detail,
      spendingCalls.transactions,
      spendingCalls.controls,
      walletCalls.balances,
      walletCalls.status,
      cardBatchCalls.status,
      cardBatchCalls.exports,
      cardBatchCalls.exportStatus,
    ),
  /** one card as its page shows it: the card, its transactions and its controls */
  ofCard: (id: string) => answersUnder(cardKeys.detail(id), cardKeys.transactionLists(id), cardKeys.controls(id), cardKeys.autoRecharge(id)),
  /** every card with its transactions and controls */
  everyCard: () => answersOf(cardCalls.detail, spendingCalls.transactions, spendingCalls.controls, balanceRuleCalls.autoRecharge),
  /** the wallet as the card screens read it: what a card can be opened or topped up from, and whether it may pay */
  wallet: () => answersOf(walletCalls.balances, walletCalls.status),
  exports: () => answersOf(cardBatchCalls.exports, cardBatchCalls.exportStatus),
};
