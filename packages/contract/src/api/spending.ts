import {
  acrossTransactionExportQuery,
  acrossTransactionPage,
  acrossTransactionQuery,
  spendingSummary,
  spendingSummaryQuery,
} from '../card-spending-across.ts';
import { cardControls, cardControlsBody } from '../card-spending.ts';
import { cardTransactionExportQuery, cardTransactionPage, cardTransactionQuery } from '../cards.ts';
import { cardIdParams } from './cards.ts';
import { defineCalls, member } from './call.ts';

const tags = ['cards'];

/** What cards spend, across the account and per card: its transactions (a page, or a spreadsheet) and the controls its next authorisation obeys. */
export const spendingCalls = defineCalls({
  acrossTransactions: {
    method: 'GET',
    path: '/card/transactions',
    query: acrossTransactionQuery,
    answer: acrossTransactionPage,
    summary: "Every card's transactions, newest first, with the card each is on; filter by card, tag, holder, merchant, category, currency and days",
    tags,
    who: member('cards.read', 'transactions:read'),
  },
  exportAcrossTransactions: {
    method: 'GET',
    path: '/card/transactions/export',
    query: acrossTransactionExportQuery,
    raw: 'xlsx',
    summary: "Every card's filtered transactions as an .xlsx spreadsheet (the raw file, not an envelope)",
    tags,
    who: member('cards.export'),
  },
  spendingSummary: {
    method: 'GET',
    path: '/card/spending-summary',
    query: spendingSummaryQuery,
    answer: spendingSummary,
    summary: 'What the cards spent, with counts, declines and the decline rate, grouped by day, card, tag, holder, merchant or category (the current China-time month unless from/to are given)',
    tags,
    who: member('cards.read', 'transactions:read'),
  },
  transactions: {
    method: 'GET',
    path: '/card/:id/transactions',
    params: cardIdParams,
    query: cardTransactionQuery,
    answer: cardTransactionPage,
    summary: "A card's transactions, newest first",
    tags,
    who: member('cards.read', 'transactions:read'),
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
    who: member('cards.read', 'cards:read'),
  },
  saveControls: {
    method: 'PUT',
    path: '/card/:id/controls',
    params: cardIdParams,
    body: cardControlsBody,
    answer: cardControls,
    summary: "Replace a card's controls; the next authorisation obeys them",
    tags,
    who: member('cards.manage', 'cards:write'),
  },
});
