import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as teamCalls from '../../../lib/generated/team-calls.ts';
import { queryKeyOf } from '../../../lib/query-keys.ts';
import { useCan } from '../lib/use-can.ts';

/** GET /team/members: the team's members with their role, status, budget and cards held. */
const getTeamMembers = () => call(teamCalls.members).then((answer) => answer.items);

export const getTeamMembersQueryOptions = () => queryOptions({ queryKey: queryKeyOf(teamCalls.members), queryFn: getTeamMembers });

/** The members, asked only by a role that may see them (team.read); the others get no query at all. */
export function useTeamMembers() {
  const allowed = useCan('team.read');
  return useQuery({ ...getTeamMembersQueryOptions(), enabled: allowed });
}
