// Generated from packages/contract/src/api/security.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { securityCalls as declared } from '@portal/contract/api/security';
import type { CallRef } from '../../api-client.ts';

export const setTradePassword: CallRef<(typeof declared)['setTradePassword']> = { method: 'PUT', path: '/account/trx-password' };
