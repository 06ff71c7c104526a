// Generated from packages/contract/src/api/merchant.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { merchantCalls as declared } from '@portal/contract/api/merchant';
import type { CallRef } from '../../api-client.ts';

export const agreementTitles: CallRef<(typeof declared)['agreementTitles']> = { method: 'GET', path: '/merchant/user-agreement/title' };
