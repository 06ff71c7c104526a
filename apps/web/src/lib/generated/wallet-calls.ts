// Generated from packages/contract/src/api/wallet.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { walletCalls as declared } from '@portal/contract/api/wallet';
import type { CallRef } from '../api-client.ts';

export const balances: CallRef<(typeof declared)['balances']> = { name: 'wallet.balances', method: 'GET', path: '/balance/account-balance' };
export const status: CallRef<(typeof declared)['status']> = { name: 'wallet.status', method: 'GET', path: '/balance/account-balance-status' };
export const cardAmount: CallRef<(typeof declared)['cardAmount']> = { name: 'wallet.cardAmount', method: 'GET', path: '/balance/card-amount' };
export const transactions: CallRef<(typeof declared)['transactions']> = { name: 'wallet.transactions', method: 'GET', path: '/balance/transactions' };
export const exportTransactions: CallRef<(typeof declared)['exportTransactions']> = { name: 'wallet.exportTransactions', method: 'GET', path: '/balance/transactions/export', raw: 'xlsx' };
