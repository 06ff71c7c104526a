// Generated from packages/contract/src/api/messages.ts by apps/web/scripts/generate-calls.ts: do not edit.
export { list } from './messages/list.ts';
export { detail } from './messages/detail.ts';
export { markRead } from './messages/mark-read.ts';
export { unreadQuantity } from './messages/unread-quantity.ts';
