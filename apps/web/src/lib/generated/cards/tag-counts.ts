// Generated from packages/contract/src/api/cards.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { cardCalls as declared } from '@portal/contract/api/cards';
import type { CallRef } from '../../api-client.ts';

export const tagCounts: CallRef<(typeof declared)['tagCounts']> = { method: 'GET', path: '/card/tags' };
