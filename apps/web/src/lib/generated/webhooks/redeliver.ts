// Generated from packages/contract/src/api/webhooks.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { webhookCalls as declared } from '@portal/contract/api/webhooks';
import type { CallRef } from '../../api-client.ts';

export const redeliver: CallRef<(typeof declared)['redeliver']> = { method: 'POST', path: '/developer/webhooks/deliveries/:id/redeliver' };
