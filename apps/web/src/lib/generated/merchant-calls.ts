// Generated from packages/contract/src/api/merchant.ts by apps/web/scripts/generate-calls.ts: do not edit.
export { merchant } from './merchant/merchant.ts';
export { agreementTitles } from './merchant/agreement-titles.ts';
export { agreement } from './merchant/agreement.ts';
