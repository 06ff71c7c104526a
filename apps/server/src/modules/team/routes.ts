import { teamCalls } from '@portal/contract/api/team';
import type { FastifyPluginAsync } from 'fastify';
import { callerOf } from '../../http/caller.ts';
import { ok } from '../../http/envelope.ts';
import { registerCall } from '../../http/register-call.ts';
import type { SecurityService } from '../security/service.ts';
import type { InvitationService, TeamService } from './service.ts';
import { sessionOf } from '../../http/principal.ts';

/**
 * The team's calls (shared/design/growing-customers.md §6): each reaches the signed-in member's own
 * team; the role each needs is the contract's (checked before the call runs). Handing ownership over
 * confirms the owner's trade password first, and is refused while the owner has none set.
 */
export const teamRoutes: FastifyPluginAsync<{ team: TeamService; invitations: InvitationService; tradePassword: Pick<SecurityService, 'tradePasswordHook'> }> = async (
  app,
  { team, invitations, tradePassword },
) => {
  registerCall(app, teamCalls.members, async (request) => ok(await team.members(sessionOf(request))));

  registerCall(app, teamCalls.updateMember, async (request) => ok(await team.updateMember(sessionOf(request), request.params.id, request.body)));

  registerCall(app, teamCalls.removeMember, async (request) => {
    await team.removeMember(request.merchant.id, sessionOf(request), request.params.id, request.body?.freeze_cards === true);
    return ok(null);
  });

  registerCall(app, teamCalls.invite, async (request) => ok(await invitations.invite(request.merchant, sessionOf(request), request.body, callerOf(request))));

  registerCall(app, teamCalls.invitations, async (request) => ok(await invitations.list(sessionOf(request).account.id)));

  registerCall(app, teamCalls.revokeInvitation, async (request) => {
    await invitations.revoke(sessionOf(request).account.id, request.params.id);
    return ok(null);
  });

  registerCall(app, teamCalls.invitation, async (request) => ok(await invitations.preview(request.merchant.id, request.params.token)));

  registerCall(
    app,
    teamCalls.transferOwnership,
    async (request) => {
      await team.transferOwnership(sessionOf(request), request.body.member_id);
      return ok(null);
    },
    { preHandler: tradePassword.tradePasswordHook(undefined, { required: teamCalls.transferOwnership.tradePassword === 'required' }) },
  );

  registerCall(app, teamCalls.rename, async (request) => {
    await team.rename(sessionOf(request).account.id, request.body.name);
    return ok(null);
  });

  registerCall(app, teamCalls.budget, async (request) => ok(await team.budget(sessionOf(request))));

  registerCall(app, teamCalls.setCardHolder, async (request) =>
    ok(await team.setCardHolder(request.merchant.id, sessionOf(request), request.params.id, request.body.holder_member_id)),
  );
};
