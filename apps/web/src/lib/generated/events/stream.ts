// Generated from packages/contract/src/api/events.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { eventCalls as declared } from '@portal/contract/api/events';
import type { CallRef } from '../../api-client.ts';

export const stream: CallRef<(typeof declared)['stream']> = { method: 'GET', path: '/events', raw: 'event-stream' };
