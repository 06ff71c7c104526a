import {
  accountBalanceAnswer,
  balanceStatusAnswer,
  cardAmountAnswer,
  walletTransactionExportQuery,
  walletTransactionPage,
  walletTransactionQuery,
} from '../wallet.ts';
import { defineCalls, member } from './call.ts';

const tags = ['wallet'];

/** The wallet (spec §7): every call reads the signed-in account's own wallet only. */
export const walletCalls = defineCalls({
  balances: {
    method: 'GET',
    path: '/balance/account-balance',
    answer: accountBalanceAnswer,
    summary: 'Available and held (anew) per currency, as two-decimal strings',
    tags,
    who: member('wallet.read', 'wallet:read'),
  },
  status: {
    method: 'GET',
    path: '/balance/account-balance-status',
    answer: balanceStatusAnswer,
    summary: 'BALANCE_STATUS_AVAILABLE, or BALANCE_STATUS_FROZEN (nothing can leave the wallet) with the reason',
    tags,
    who: member('wallet.read', 'wallet:read'),
  },
  cardAmount: {
    method: 'GET',
    path: '/balance/card-amount',
    answer: cardAmountAnswer,
    summary: "The total on the account's cards, per currency",
    tags,
    who: member('wallet.read', 'wallet:read'),
  },
  transactions: {
    method: 'GET',
    path: '/balance/transactions',
    query: walletTransactionQuery,
    answer: walletTransactionPage,
    summary: 'Wallet transactions, newest first, paginated; filter by type, currency and date range (days in UTC+8)',
    tags,
    who: member('wallet.history', 'transactions:read'),
  },
  exportTransactions: {
    method: 'GET',
    path: '/balance/transactions/export',
    query: walletTransactionExportQuery,
    raw: 'xlsx',
    summary: 'The filtered wallet transactions as an .xlsx spreadsheet (the raw file, not an envelope)',
    tags,
    who: member('wallet.history'),
  },
});
