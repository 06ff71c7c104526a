// Generated from packages/contract/src/api/balance-rules.ts by apps/web/scripts/generate-calls.ts: do not edit.
export { autoRecharge } from './balance-rules/auto-recharge.ts';
export { setAutoRecharge } from './balance-rules/set-auto-recharge.ts';
export { removeAutoRecharge } from './balance-rules/remove-auto-recharge.ts';
export { tagAutoRecharge } from './balance-rules/tag-auto-recharge.ts';
export { setTagAutoRecharge } from './balance-rules/set-tag-auto-recharge.ts';
export { removeTagAutoRecharge } from './balance-rules/remove-tag-auto-recharge.ts';
export { alerts } from './balance-rules/alerts.ts';
export { setAlerts } from './balance-rules/set-alerts.ts';
