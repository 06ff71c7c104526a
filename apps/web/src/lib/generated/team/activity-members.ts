// Generated from packages/contract/src/api/team.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { teamCalls as declared } from '@portal/contract/api/team';
import type { CallRef } from '../../api-client.ts';

export const activityMembers: CallRef<(typeof declared)['activityMembers']> = { method: 'GET', path: '/team/activity/members' };
