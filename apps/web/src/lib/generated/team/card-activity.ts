// Generated from packages/contract/src/api/team.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { teamCalls as declared } from '@portal/contract/api/team';
import type { CallRef } from '../../api-client.ts';

export const cardActivity: CallRef<(typeof declared)['cardActivity']> = { method: 'GET', path: '/card/:id/activity' };
