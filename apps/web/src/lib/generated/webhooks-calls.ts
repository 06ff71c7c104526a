// Generated from packages/contract/src/api/webhooks.ts by apps/web/scripts/generate-calls.ts: do not edit.
export { list } from './webhooks/list.ts';
export { create } from './webhooks/create.ts';
export { update } from './webhooks/update.ts';
export { remove } from './webhooks/remove.ts';
export { rotateSecret } from './webhooks/rotate-secret.ts';
export { deliveries } from './webhooks/deliveries.ts';
export { redeliver } from './webhooks/redeliver.ts';
