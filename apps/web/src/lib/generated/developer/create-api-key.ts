// Generated from packages/contract/src/api/developer.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { developerCalls as declared } from '@portal/contract/api/developer';
import type { CallRef } from '../../api-client.ts';

export const createApiKey: CallRef<(typeof declared)['createApiKey']> = { method: 'POST', path: '/developer/api-keys' };
