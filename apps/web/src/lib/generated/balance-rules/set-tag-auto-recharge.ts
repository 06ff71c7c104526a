// Generated from packages/contract/src/api/balance-rules.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { balanceRuleCalls as declared } from '@portal/contract/api/balance-rules';
import type { CallRef } from '../../api-client.ts';

export const setTagAutoRecharge: CallRef<(typeof declared)['setTagAutoRecharge']> = { method: 'PUT', path: '/card/tag-auto-recharge/:tag' };
