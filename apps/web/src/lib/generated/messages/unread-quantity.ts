// Generated from packages/contract/src/api/messages.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { messageCalls as declared } from '@portal/contract/api/messages';
import type { CallRef } from '../../api-client.ts';

export const unreadQuantity: CallRef<(typeof declared)['unreadQuantity']> = { method: 'GET', path: '/msg-center/station-msg/unread-quantity' };
