// Generated from packages/contract/src/api/funding.ts by apps/web/scripts/generate-calls.ts: do not edit.
export { autoRecharge } from './funding/auto-recharge.ts';
export { setAutoRecharge } from './funding/set-auto-recharge.ts';
export { alerts } from './funding/alerts.ts';
export { setAlerts } from './funding/set-alerts.ts';
