import { cardControls, cardControlsBody } from '../card-spending.ts';
import { cardTransactionExportQuery, cardTransactionPage, cardTransactionQuery } from '../cards.ts';
import { cardIdParams } from './cards.ts';
import { defineCalls, member } from './call.ts';

const tags = ['cards'];

/** What a card spends: its transactions (a page, or a spreadsheet) and the controls its next authorisation obeys. */
export const spendingCalls = defineCalls({
  transactions: {
    method: 'GET',
    path: '/card/:id/transactions',
    params: cardIdParams,
    query: cardTransactionQuery,
    answer: cardTransactionPage,
    summary: "A card's transactions, newest first",
    tags,
    who: member('cards.read'),
  },
  exportTransactions: {
    method: 'GET',
    path: '/card/:id/transactions/export',
    params: cardIdParams,
    query: cardTransactionExportQuery,
    raw: 'xlsx',
    summary: "A card's filtered transactions as an .xlsx spreadsheet (the raw file, not an envelope)",
    tags,
    who: member('cards.export'),
  },
  controls: {
    method: 'GET',
    path: '/card/:id/controls',
    params: cardIdParams,
    answer: cardControls,
    summary: "A card's limits, blocked categories and allowed countries, with what was spent today and this month",
    tags,
    who: member('cards.read'),
  },
  saveControls: {
    method: 'PUT',
    path: '/card/:id/controls',
    params: cardIdParams,
    body: cardControlsBody,
    answer: cardControls,
    summary: "Replace a card's controls; the next authorisation obeys them",
    tags,
    who: member('cards.manage'),
  },
});
