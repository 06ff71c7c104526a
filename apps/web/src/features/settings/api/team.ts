import type { BodyOf } from '@portal/contract/api/call';
import type { teamCalls as declared } from '@portal/contract/api/team';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCan } from '../../../domain/team/lib/use-can.ts';
import { call } from '../../../lib/api-client.ts';
import * as accountCalls from '../../../lib/generated/account-calls.ts';
import * as teamCalls from '../../../lib/generated/team-calls.ts';
import { answersOf, queryKeyOf } from '../../../lib/query-keys.ts';

/** What a change of the team reads again: the members, the invitations, and the signed-in member's own facts (role, team name). */
const teamAnswers = () => answersOf(teamCalls.members, teamCalls.invitations, teamCalls.budget, accountCalls.info);

/** GET /team/invitations: those still pending, newest first. */
const getInvitations = () => call(teamCalls.invitations).then((answer) => answer.items);

export const getInvitationsQueryOptions = () => queryOptions({ queryKey: queryKeyOf(teamCalls.invitations), queryFn: getInvitations });

export function useInvitations() {
  const allowed = useCan('team.read');
  return useQuery({ ...getInvitationsQueryOptions(), enabled: allowed });
}

/** A change of the team's, after which (answered or refused) what it shows is read again. */
function useTeamChange<Input, Answer>(send: (input: Input) => Promise<Answer>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: send, onSettled: () => queryClient.invalidateQueries(teamAnswers()) });
}

export type UpdateMemberBody = BodyOf<(typeof declared)['updateMember']>;

/** PUT /team/members/:id: a member's role, monthly budget or status. */
export const useUpdateMember = () =>
  useTeamChange(({ id, body }: { id: string; body: UpdateMemberBody }) => call(teamCalls.updateMember, { params: { id }, body }));

/** DELETE /team/members/:id, freezing the cards they held when asked. */
export const useRemoveMember = () =>
  useTeamChange(({ id, freezeCards }: { id: string; freezeCards: boolean }) =>
    call(teamCalls.removeMember, { params: { id }, body: { freeze_cards: freezeCards } }),
  );

export type InviteBody = BodyOf<(typeof declared)['invite']>;

/** POST /team/invitations: by e-mail or SMS. */
export const useInvite = () => useTeamChange((body: InviteBody) => call(teamCalls.invite, { body }));

/** DELETE /team/invitations/:id: its link stops working. */
export const useRevokeInvitation = () => useTeamChange((id: string) => call(teamCalls.revokeInvitation, { params: { id } }));

/** POST /team/ownership: to another active member, with the trade password once one is set. */
export const useTransferOwnership = () =>
  useTeamChange((body: { member_id: string; trx_password?: string }) => call(teamCalls.transferOwnership, { body }));

/** PUT /team/name. */
export const useRenameTeam = () => useTeamChange((name: string) => call(teamCalls.rename, { body: { name } }));
