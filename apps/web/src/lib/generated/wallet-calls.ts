// Generated from packages/contract/src/api/wallet.ts by apps/web/scripts/generate-calls.ts: do not edit.
export { balances } from './wallet/balances.ts';
export { status } from './wallet/status.ts';
export { cardAmount } from './wallet/card-amount.ts';
export { transactions } from './wallet/transactions.ts';
export { exportTransactions } from './wallet/export-transactions.ts';
