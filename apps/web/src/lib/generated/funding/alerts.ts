// Generated from packages/contract/src/api/funding.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { fundingCalls as declared } from '@portal/contract/api/funding';
import type { CallRef } from '../../api-client.ts';

export const alerts: CallRef<(typeof declared)['alerts']> = { method: 'GET', path: '/account/alerts' };
