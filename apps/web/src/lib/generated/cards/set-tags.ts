// Generated from packages/contract/src/api/cards.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { cardCalls as declared } from '@portal/contract/api/cards';
import type { CallRef } from '../../api-client.ts';

export const setTags: CallRef<(typeof declared)['setTags']> = { method: 'PUT', path: '/card/:id/tags' };
