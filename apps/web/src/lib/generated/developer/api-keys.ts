// Generated from packages/contract/src/api/developer.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { developerCalls as declared } from '@portal/contract/api/developer';
import type { CallRef } from '../../api-client.ts';

export const apiKeys: CallRef<(typeof declared)['apiKeys']> = { method: 'GET', path: '/developer/api-keys' };
