import type { CatalogueEntry } from './error-catalogue-entry.ts';
import { TeamErrorCode } from './team-errors.ts';

/** Teams: roles, members, invitations, budgets and ownership. */
export const teamErrors: Record<number, CatalogueEntry> = {
  [TeamErrorCode.PERMISSION_DENIED]: {
    status: 403,
    message: '权限不足：{what}',
    meaning:
      "The member's role may not take the call's action (the contract's role table, team.ts); nothing changed. The message names the " +
      'action and the roles that may take it (权限不足：卡片充值与提现需要所有者、管理员、财务或成员角色); data.action names the action.',
  },
  [TeamErrorCode.MEMBER_NOT_FOUND]: {
    status: 404,
    message: '成员不存在',
    meaning: 'No member of this team has that id (a member of another team is the same as none); nothing changed.',
  },
  [TeamErrorCode.INVITATION_INVALID]: {
    status: 400,
    message: '邀请链接无效',
    meaning: "The invitation token is no invitation of this merchant's (unknown, or another merchant's); nothing changed.",
  },
  [TeamErrorCode.INVITATION_EXPIRED]: {
    status: 400,
    message: '邀请链接已过期，请联系管理员重新邀请',
    meaning: 'The invitation is older than 72 hours; nothing changed.',
  },
  [TeamErrorCode.INVITATION_USED]: {
    status: 400,
    message: '邀请链接已被使用',
    meaning: 'The invitation was accepted already (it is single use); nothing changed.',
  },
  [TeamErrorCode.INVITATION_REVOKED]: {
    status: 400,
    message: '邀请已被撤销，请联系管理员',
    meaning: 'The invitation was revoked by the team; nothing changed.',
  },
  [TeamErrorCode.INVITATION_PENDING]: {
    status: 409,
    message: '该地址已有一个待接受的邀请',
    meaning: 'POST /team/invitations to an e-mail or phone that has a pending invitation of this team; revoke it first. Nothing changed.',
  },
  [TeamErrorCode.ALREADY_IN_TEAM]: {
    status: 409,
    message: '该用户已是本商户下某个团队的成员',
    meaning:
      'The e-mail or phone already signs in as a member at this merchant (a person belongs to one team per merchant): refused when ' +
      'inviting and when signing up with an invitation; nothing changed.',
  },
  [TeamErrorCode.LAST_OWNER]: {
    status: 409,
    message: '所有者不能被移除、停用或更改角色，请先转让所有权',
    meaning: 'PUT or DELETE /team/members/{id} on the owner; ownership moves only by POST /team/ownership. Nothing changed.',
  },
  [TeamErrorCode.BUDGET_EXCEEDED]: {
    status: 400,
    message: '超出本月预算：本月剩余{left} {currency}',
    meaning:
      "The call would take the member's cards past their monthly budget (opening costs + top-ups − withdrawals this China-time " +
      'month); nothing changed. data.left and data.currency say what is left.',
  },
  [TeamErrorCode.MEMBER_SUSPENDED]: {
    status: 403,
    message: '该成员已被停用，请联系团队管理员',
    meaning: 'Signing in as a suspended member; nothing changed.',
  },
  [TeamErrorCode.NOT_YOURSELF]: {
    status: 400,
    message: '不能对自己执行此操作',
    meaning: 'A member changing, suspending or removing themselves, or handing ownership to themselves; nothing changed.',
  },
  [TeamErrorCode.INVITATION_NOT_FOUND]: {
    status: 404,
    message: '邀请不存在或已失效',
    meaning: 'DELETE /team/invitations/{id}: no pending invitation of this team has that id; nothing changed.',
  },
  [TeamErrorCode.HOLDER_INVALID]: {
    status: 400,
    message: '持卡成员无效：只能分配给本团队正常状态的成员',
    meaning: 'PUT /card/{id}/holder naming no active member of the team; nothing changed.',
  },
  [TeamErrorCode.OWNER_BY_TRANSFER]: {
    status: 400,
    message: '不能直接将成员设为所有者：所有权只能通过“转让所有权”移交',
    meaning:
      'PUT /team/members/{id} with role OWNER: a role change never makes an owner; the owner hands ownership over by POST ' +
      '/team/ownership (with the trade password), and steps down to ADMIN in the same change. Nothing changed.',
  },
  [TeamErrorCode.BUDGET_MEMBER_ONLY]: {
    status: 400,
    message: '只有“成员”角色可以设置月度预算',
    meaning:
      'POST /team/invitations or PUT /team/members/{id} giving a monthly_budget (not null) to a role other than MEMBER (the role ' +
      'the body gives, else the member\'s own): a budget binds only the cards a MEMBER holds (spendsWithinBudget, team.ts). ' +
      'data.fields names monthly_budget; nothing changed. A member moved off MEMBER loses the budget they had.',
  },
};
