// Generated from packages/contract/src/api/spending.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { spendingCalls as declared } from '@portal/contract/api/spending';
import type { CallRef } from '../../api-client.ts';

export const exportAcrossTransactions: CallRef<(typeof declared)['exportAcrossTransactions']> = { method: 'GET', path: '/card/transactions/export', raw: 'xlsx' };
