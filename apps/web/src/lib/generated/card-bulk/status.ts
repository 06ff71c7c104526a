// Generated from packages/contract/src/api/card-bulk.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { cardBulkCalls as declared } from '@portal/contract/api/card-bulk';
import type { CallRef } from '../../api-client.ts';

export const status: CallRef<(typeof declared)['status']> = { method: 'GET', path: '/card/bulk-actions/:id' };
