// Generated from packages/contract/src/api/spending.ts by apps/web/scripts/generate-calls.ts: do not edit.
export { acrossTransactions } from './spending/across-transactions.ts';
export { exportAcrossTransactions } from './spending/export-across-transactions.ts';
export { spendingSummary } from './spending/spending-summary.ts';
export { transactions } from './spending/transactions.ts';
export { exportTransactions } from './spending/export-transactions.ts';
export { controls } from './spending/controls.ts';
export { saveControls } from './spending/save-controls.ts';
