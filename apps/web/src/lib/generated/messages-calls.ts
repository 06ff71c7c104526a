// Generated from packages/contract/src/api/messages.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { messageCalls as declared } from '@portal/contract/api/messages';
import type { CallRef } from '../api-client.ts';

export const list: CallRef<(typeof declared)['list']> = { name: 'messages.list', method: 'GET', path: '/msg-center/station-msg/list' };
export const detail: CallRef<(typeof declared)['detail']> = { name: 'messages.detail', method: 'GET', path: '/msg-center/station-msg/detail' };
export const markRead: CallRef<(typeof declared)['markRead']> = { name: 'messages.markRead', method: 'PUT', path: '/msg-center/station-msg/read-status' };
export const unreadQuantity: CallRef<(typeof declared)['unreadQuantity']> = { name: 'messages.unreadQuantity', method: 'GET', path: '/msg-center/station-msg/unread-quantity' };
