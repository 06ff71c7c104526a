// Generated from packages/contract/src/api/card-bulk.ts by apps/web/scripts/generate-calls.ts: do not edit.
export { review } from './card-bulk/review.ts';
export { create } from './card-bulk/create.ts';
export { status } from './card-bulk/status.ts';
