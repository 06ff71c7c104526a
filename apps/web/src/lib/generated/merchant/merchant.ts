// Generated from packages/contract/src/api/merchant.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { merchantCalls as declared } from '@portal/contract/api/merchant';
import type { CallRef } from '../../api-client.ts';

export const merchant: CallRef<(typeof declared)['merchant']> = { method: 'GET', path: '/merchant' };
