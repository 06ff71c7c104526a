/**
 * The codes of the team's refusals (27xx: a role that may not, members, invitations, budgets, ownership);
 * the error catalogue gives each its HTTP status, 中文 message and meaning. Apart from errors.ts so that
 * the sign-in page, which reads that file, does not carry them.
 */
export const TeamErrorCode = {
  PERMISSION_DENIED: 2701,
  MEMBER_NOT_FOUND: 2702,
  INVITATION_INVALID: 2703,
  INVITATION_EXPIRED: 2704,
  INVITATION_USED: 2705,
  INVITATION_REVOKED: 2706,
  INVITATION_PENDING: 2707,
  ALREADY_IN_TEAM: 2708,
  LAST_OWNER: 2709,
  BUDGET_EXCEEDED: 2710,
  MEMBER_SUSPENDED: 2711,
  NOT_YOURSELF: 2712,
  INVITATION_NOT_FOUND: 2713,
  HOLDER_INVALID: 2714,
  OWNER_BY_TRANSFER: 2715,
  BUDGET_MEMBER_ONLY: 2716,
} as const;
