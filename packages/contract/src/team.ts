/**
 * Teams (shared/design/growing-customers.md §1): an account is a company, the people who sign in to it
 * are its members, each with one role. The role table below decides every call on the server (the
 * route table names the action a call needs) and what the portal shows; nothing else decides it.
 */
import { z } from 'zod';
import { AMOUNT_PATTERN } from './money.ts';
import { phoneInfoSchema } from './validation.ts';

import { MEMBER_STATUSES, type MemberStatus, ROLE_LABELS, ROLES, type Role } from './enums.ts';

export { MEMBER_STATUSES, type MemberStatus, ROLE_LABELS, ROLES, type Role };

/** What each role is for, as the members screen explains it. */
export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  OWNER: '全部权限，包括管理成员和转让所有权',
  ADMIN: '除转让所有权外的全部权限',
  FINANCE: '钱包、任意卡片的充值与提现、流水与导出；不能管理成员',
  MEMBER: '在预算内开卡，只能查看和操作自己持有的卡片',
  VIEWER: '只读：可查看全部信息（完整卡号除外），不能做任何更改',
};

export const MEMBER_STATUS_LABELS: Record<MemberStatus, string> = { ACTIVE: '正常', SUSPENDED: '已停用' };

/**
 * The actions a role may be granted, each with the words a refusal uses (权限不足：<words>…). A call
 * with no action in the route table is the member's own (their sign-in, password, sessions) or open
 * to every role (the wallet's balances, messages, cards they may see).
 */
export const ACTIONS = {
  'wallet.read': '查看钱包余额',
  'wallet.history': '查看钱包流水',
  'wallet.fund': '钱包充值',
  'cards.read': '查看卡片',
  'cards.open': '开卡',
  'cards.manage': '管理卡片（冻结、解冻、改名、限额、注销）',
  'cards.fund': '卡片充值与提现',
  'cards.reveal': '查看完整卡号',
  'cards.export': '导出卡片与交易',
  'cards.assign': '分配持卡成员',
  'account.verify': '提交开卡资料',
  'messages.read': '查看消息',
  'team.read': '查看团队成员',
  'team.manage': '管理团队成员',
  'team.ownership': '转让所有权',
  'activity.read': '查看操作日志',
  'alerts.manage': '设置余额提醒',
  'developer.keys': '管理 API 密钥',
  'developer.webhooks': '管理 Webhook',
} as const;
export type Action = keyof typeof ACTIONS;

const EVERYONE: readonly Action[] = ['wallet.read', 'cards.read', 'messages.read'];

/** Role → the actions it may take. One table: the server decides from it, the portal hides from it. */
export const ROLE_ACTIONS: Record<Role, readonly Action[]> = {
  OWNER: Object.keys(ACTIONS) as Action[],
  ADMIN: (Object.keys(ACTIONS) as Action[]).filter((action) => action !== 'team.ownership'),
  FINANCE: [...EVERYONE, 'wallet.history', 'wallet.fund', 'cards.fund', 'cards.export', 'activity.read', 'alerts.manage', 'developer.keys'],
  MEMBER: [...EVERYONE, 'cards.open', 'cards.manage', 'cards.fund', 'cards.reveal', 'cards.export'],
  VIEWER: [...EVERYONE, 'wallet.history', 'cards.export', 'team.read', 'activity.read'],
};

/** Whether `role` may take `action`. */
export const can = (role: Role, action: Action) => ROLE_ACTIONS[role].includes(action);

/** The roles that act only on the cards they hold (and see only those). */
export const holdsOwnCardsOnly = (role: Role) => role === 'MEMBER';

/**
 * The roles that receive every card's messages (a decline, a batch's failures, a 3-D Secure code); the
 * other members receive those of the cards they hold.
 */
export const receivesEveryCardMessage = (role: Role) => role === 'OWNER' || role === 'ADMIN';

/** The roles that may take `action`, in the table's order. */
export const rolesThatMay = (action: Action) => ROLES.filter((role) => can(role, action));

/** The roles whose monthly budget, when they have one, bounds what their cards take from the wallet. */
export const spendsWithinBudget = (role: Role) => role === 'MEMBER';

/** The roles a member may be given by invitation or a role change (ownership moves only by POST /team/ownership). */
export const ASSIGNABLE_ROLES = ROLES.filter((role) => role !== 'OWNER');

/** The refusal's words for `action`: 权限不足：卡片充值与提现需要所有者、管理员、财务或成员角色 */
export function permissionDeniedMessage(action: Action) {
  const labels = rolesThatMay(action).map((role) => ROLE_LABELS[role]);
  const named = labels.length > 1 ? `${labels.slice(0, -1).join('、')}或${labels.at(-1)}` : (labels[0] ?? '');
  return `权限不足：${ACTIONS[action]}需要${named}角色`;
}

export const teamLimits = {
  /** an invitation's link works this long */
  invitationHours: 72,
  /** a budget is at most this, per month */
  budgetMax: '1000000000.00',
  /** the budget's currency: the card products are priced in it */
  budgetCurrency: 'USD',
  activityPageSizeMax: 100,
  activityExportMax: 10_000,
} as const;

export const teamMessages = {
  roleRequired: '请选择角色',
  roleInvalid: '请选择有效的角色',
  budgetInvalid: '请输入正确的预算金额（不小于0，最多两位小数）',
  emailOrPhoneRequired: '请填写被邀请人的邮箱或手机号',
  emailAndPhone: '邮箱和手机号只能填写一个',
  holderRequired: '请选择持卡成员',
} as const;

/** A budget in the budget's currency: null is none (no limit); else 0 or more, two decimals at most. */
const budgetField = z
  .string()
  .nullable()
  .refine((value) => value === null || (AMOUNT_PATTERN.test(value) && Number(value) <= Number(teamLimits.budgetMax)), {
    message: teamMessages.budgetInvalid,
  });

const assignableRole = z.enum(ASSIGNABLE_ROLES as [Exclude<Role, 'OWNER'>, ...Exclude<Role, 'OWNER'>[]], { error: teamMessages.roleInvalid });

export const teamMember = z.object({
  id: z.string(),
  /** 138****8000 */
  phone_masked: z.string(),
  email: z.string().nullable(),
  role: z.enum(ROLES),
  status: z.enum(MEMBER_STATUSES),
  /** null: no budget (the member's cards may take what the wallet holds) */
  monthly_budget: z.string().nullable(),
  /** this China-time month: opening costs + top-ups − withdrawals of the cards they hold */
  budget_used: z.string(),
  budget_currency: z.string(),
  cards_held: z.number().int(),
  joined_at: z.string(),
  is_me: z.boolean(),
});
export type TeamMember = z.infer<typeof teamMember>;
export const teamMembersAnswer = z.object({ items: z.array(teamMember) });

export const memberIdParams = z.object({ id: z.string().max(100) });

export const updateMemberBody = z
  .object({
    /** OWNER is refused by the server with its own code (2715): ownership moves only by POST /team/ownership */
    role: z.enum(ROLES, { error: teamMessages.roleInvalid }).optional(),
    monthly_budget: budgetField.optional(),
    status: z.enum(MEMBER_STATUSES).optional(),
  })
  .strict();

export const removeMemberBody = z.object({
  /** freeze the cards they held (they go to the owner either way) */
  freeze_cards: z.boolean().optional(),
});

export const invitationBody = z
  .object({
    email: z.string().trim().toLowerCase().max(40).email('请输入正确的邮箱').optional(),
    phone_info: phoneInfoSchema.optional(),
    role: assignableRole,
    monthly_budget: budgetField.optional(),
  })
  .superRefine((value, ctx) => {
    if (!value.email && !value.phone_info) ctx.addIssue({ code: 'custom', path: ['email'], message: teamMessages.emailOrPhoneRequired });
    if (value.email && value.phone_info) ctx.addIssue({ code: 'custom', path: ['email'], message: teamMessages.emailAndPhone });
  });
export type InvitationBody = z.input<typeof invitationBody>;

export const invitationCreated = z.object({ id: z.string(), expires_at: z.string() });

export const invitation = z.object({
  id: z.string(),
  /** where it was sent: the e-mail, or the phone masked */
  sent_to: z.string(),
  channel: z.enum(['EMAIL', 'SMS']),
  role: z.enum(ROLES),
  monthly_budget: z.string().nullable(),
  invited_by: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
});
export const invitationsAnswer = z.object({ items: z.array(invitation) });

/** What the sign-up page shows for `/sign-up?invitation=…` before the invitee signs up. */
export const invitationPreview = z.object({
  account_name: z.string(),
  role: z.enum(ROLES),
  invited_by: z.string(),
  /** the address it was sent to: the sign-up's phone must be it when it went by SMS */
  phone_masked: z.string().nullable(),
  email: z.string().nullable(),
  expires_at: z.string(),
});
export const invitationTokenParams = z.object({ token: z.string().max(200) });

export const ownershipBody = z.object({
  member_id: z.string().max(100),
  trx_password: z.string().max(100).optional(),
});

export const cardHolderBody = z.object({ holder_member_id: z.string({ error: teamMessages.holderRequired }).max(100) });

/** The kinds of change the activity log records. */
export const ACTIVITY_KINDS = ['MONEY', 'CARD', 'MEMBER', 'KEY', 'SECURITY'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];
export const ACTIVITY_KIND_LABELS: Record<ActivityKind, string> = {
  MONEY: '资金',
  CARD: '卡片',
  MEMBER: '成员',
  KEY: '密钥',
  SECURITY: '安全',
};

export const activityQuery = z.object({
  member_id: z.string().max(100).optional(),
  kind: z.enum(ACTIVITY_KINDS).optional(),
  card_id: z.string().max(100).optional(),
  /** YYYY-MM-DD, China time */
  from: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '请输入正确的日期').optional(),
  to: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '请输入正确的日期').optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(teamLimits.activityPageSizeMax).default(20),
});
export const activityExportQuery = activityQuery.omit({ page: true, page_size: true });
export const cardActivityQuery = activityQuery.pick({ page: true, page_size: true });

export const activityItem = z.object({
  id: z.string(),
  at: z.string(),
  member_id: z.string().nullable(),
  /** the member as the team knows them: 138****8000 (管理员); 系统 for what no member did */
  member_label: z.string(),
  kind: z.enum(ACTIVITY_KINDS),
  /** what was done, 中文: 冻结卡片 ****1234 */
  summary: z.string(),
  card_id: z.string().nullable(),
  amount: z.string().nullable(),
  currency: z.string().nullable(),
  ip: z.string(),
  device: z.string(),
});
export type ActivityItem = z.infer<typeof activityItem>;
export const activityPage = z.object({
  items: z.array(activityItem),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});

/** The members the activity log can be filtered by: the team's, and any removed one the log names, each as the log names them. */
export const activityMembersAnswer = z.object({
  items: z.array(z.object({ id: z.string(), label: z.string() })),
});
export type ActivityMember = z.infer<typeof activityMembersAnswer>['items'][number];

export const teamNameBody = z.object({
  name: z.string({ error: '请输入团队名称' }).trim().min(1, '请输入团队名称').max(40, '团队名称最多40个字符'),
});

export const teamBudgetAnswer = z.object({
  monthly_budget: z.string().nullable(),
  used: z.string(),
  /** null when there is no budget */
  left: z.string().nullable(),
  currency: z.string(),
});
export type TeamBudget = z.infer<typeof teamBudgetAnswer>;
