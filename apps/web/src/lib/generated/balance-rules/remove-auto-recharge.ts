// Generated from packages/contract/src/api/balance-rules.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { balanceRuleCalls as declared } from '@portal/contract/api/balance-rules';
import type { CallRef } from '../../api-client.ts';

export const removeAutoRecharge: CallRef<(typeof declared)['removeAutoRecharge']> = { method: 'DELETE', path: '/card/:id/auto-recharge' };
