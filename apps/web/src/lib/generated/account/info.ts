// Generated from packages/contract/src/api/account.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { accountCalls as declared } from '@portal/contract/api/account';
import type { CallRef } from '../../api-client.ts';

export const info: CallRef<(typeof declared)['info']> = { method: 'GET', path: '/account/info' };
