// Generated from packages/contract/src/api/funding.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { fundingCalls as declared } from '@portal/contract/api/funding';
import type { CallRef } from '../../api-client.ts';

export const receipt: CallRef<(typeof declared)['receipt']> = { method: 'GET', path: '/wallet/deposits/receipts/:id', raw: 'file' };
