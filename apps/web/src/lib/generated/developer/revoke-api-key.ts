// Generated from packages/contract/src/api/developer.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { developerCalls as declared } from '@portal/contract/api/developer';
import type { CallRef } from '../../api-client.ts';

export const revokeApiKey: CallRef<(typeof declared)['revokeApiKey']> = { method: 'DELETE', path: '/developer/api-keys/:id' };
