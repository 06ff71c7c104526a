// Generated from packages/contract/src/api/card-batches.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { cardBatchCalls as declared } from '@portal/contract/api/card-batches';
import type { CallRef } from '../../api-client.ts';

export const create: CallRef<(typeof declared)['create']> = { method: 'POST', path: '/batch-create-card' };
