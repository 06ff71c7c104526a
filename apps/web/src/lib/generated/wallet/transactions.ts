// Generated from packages/contract/src/api/wallet.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { walletCalls as declared } from '@portal/contract/api/wallet';
import type { CallRef } from '../../api-client.ts';

export const transactions: CallRef<(typeof declared)['transactions']> = { method: 'GET', path: '/balance/transactions' };
