// Generated from packages/contract/src/api/team.ts by apps/web/scripts/generate-calls.ts: do not edit.
export { members } from './team/members.ts';
export { updateMember } from './team/update-member.ts';
export { removeMember } from './team/remove-member.ts';
export { invite } from './team/invite.ts';
export { invitations } from './team/invitations.ts';
export { revokeInvitation } from './team/revoke-invitation.ts';
export { invitation } from './team/invitation.ts';
export { transferOwnership } from './team/transfer-ownership.ts';
export { rename } from './team/rename.ts';
export { budget } from './team/budget.ts';
export { activity } from './team/activity.ts';
export { exportActivity } from './team/export-activity.ts';
export { activityMembers } from './team/activity-members.ts';
export { cardActivity } from './team/card-activity.ts';
export { setCardHolder } from './team/set-card-holder.ts';
