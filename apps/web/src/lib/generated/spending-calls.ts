// Generated from packages/contract/src/api/spending.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { spendingCalls as declared } from '@portal/contract/api/spending';
import type { CallRef } from '../api-client.ts';

export const transactions: CallRef<(typeof declared)['transactions']> = { name: 'spending.transactions', method: 'GET', path: '/card/:id/transactions' };
export const exportTransactions: CallRef<(typeof declared)['exportTransactions']> = { name: 'spending.exportTransactions', method: 'GET', path: '/card/:id/transactions/export', raw: 'xlsx' };
export const controls: CallRef<(typeof declared)['controls']> = { name: 'spending.controls', method: 'GET', path: '/card/:id/controls' };
export const saveControls: CallRef<(typeof declared)['saveControls']> = { name: 'spending.saveControls', method: 'PUT', path: '/card/:id/controls' };
