import { z } from 'zod';
import { CARD_STATUSES } from './enums.ts';
import { OPERATOR_ROLES, type OperatorRole, operatorRoleLabel } from './console-labels.ts';
import { CUSTOMER_AUDIT_ACTIONS, customerAuditActionLabel } from './console-customers-audit.ts';
import { merchantSchema } from './merchant.ts';

/**
 * The merchant's console (shared/design/growing-customers.md §5): its operators, their roles, their
 * sign-in with a password and a TOTP code, and the audit log of every operator action.
 */

export { OPERATOR_ROLES, type OperatorRole, operatorRoleLabel } from './console-labels.ts';

export const OPERATOR_STATUSES = ['ACTIVE', 'DISABLED'] as const;
export type OperatorStatus = (typeof OPERATOR_STATUSES)[number];
export const operatorStatusLabel: Record<OperatorStatus, string> = { ACTIVE: '正常', DISABLED: '已停用' };

/**
 * How far an operator's sign-in has come: ENROL (the password was right, no authenticator yet: the
 * token can only enrol one), VERIFY (the password was right: the token can only give a code), FULL.
 */
export const OPERATOR_STAGES = ['ENROL', 'VERIFY', 'FULL'] as const;
export type OperatorStage = (typeof OPERATOR_STAGES)[number];

/** What a console call does, and the roles that may do it; decided on the server, read by the screens. */
export const CONSOLE_ACTIONS = {
  'overview.read': ['SUPPORT', 'FINANCE', 'RISK', 'ADMIN'],
  'audit.read': ['SUPPORT', 'FINANCE', 'RISK', 'ADMIN'],
  'operators.read': ['ADMIN'],
  'operators.write': ['ADMIN'],
  'products.read': ['SUPPORT', 'FINANCE', 'RISK', 'ADMIN'],
  'products.write': ['ADMIN'],
  'content.read': ['SUPPORT', 'FINANCE', 'RISK', 'ADMIN'],
  'content.publish': ['ADMIN'],
  'deposits.read': ['SUPPORT', 'FINANCE', 'RISK', 'ADMIN'],
  'deposits.decide': ['FINANCE', 'ADMIN'],
  'money.read': ['SUPPORT', 'FINANCE', 'RISK', 'ADMIN'],
  'money.propose': ['FINANCE', 'ADMIN'],
  'money.approve': ['FINANCE', 'ADMIN'],
  'customers.read': ['SUPPORT', 'FINANCE', 'RISK', 'ADMIN'],
  'customers.message': ['SUPPORT', 'ADMIN'],
  'customers.freeze': ['RISK', 'ADMIN'],
} as const satisfies Record<string, readonly OperatorRole[]>;
export type ConsoleAction = keyof typeof CONSOLE_ACTIONS;

export const operatorMay = (role: OperatorRole, action: ConsoleAction) => (CONSOLE_ACTIONS[action] as readonly OperatorRole[]).includes(role);
export const rolesFor = (action: ConsoleAction) => (CONSOLE_ACTIONS[action] as readonly OperatorRole[]).map((role) => operatorRoleLabel[role]).join('、');

/** An operator's session and its sign-in's limits. */
export const consolePolicy = {
  sessionMs: 12 * 60 * 60_000,
  idleMs: 30 * 60_000,
  /** wrong passwords and wrong codes, counted together: the fifth in 15 minutes locks sign-in for 15 minutes */
  windowMs: 15 * 60_000,
  maxFailures: 5,
  warnFromFailure: 3,
  /** a code is accepted in its 30-second step and one step either side (RFC 6238 §5.2) */
  totpStepSeconds: 30,
  totpSkewSteps: 1,
  recoveryCodeCount: 10,
  issuer: '商户控制台',
} as const;

/** A console bearer token starts so: a portal call refuses it as such, and a console call refuses any other. */
export const OPERATOR_TOKEN_PREFIX = 'op_';
export const isOperatorToken = (token: string) => token.startsWith(OPERATOR_TOKEN_PREFIX);

/** A recovery code: two groups of four letters and digits (no 0/O/1/I), typed with or without the dash. */
export const RECOVERY_CODE_PATTERN = /^[A-HJ-NP-Z2-9]{4}-?[A-HJ-NP-Z2-9]{4}$/i;
export const TOTP_CODE_PATTERN = /^\d{6}$/;
export const normaliseRecoveryCode = (code: string) => code.replace('-', '').toUpperCase();

export const operatorEmail = z
  .string({ error: '请输入邮箱' })
  .trim()
  .toLowerCase()
  .min(1, '请输入邮箱')
  .max(254, '邮箱最多254个字符')
  .pipe(z.email({ error: '请输入正确的邮箱' }));

export const consoleLoginBody = z.object({
  email: operatorEmail,
  password: z.string({ error: '请输入密码' }).min(1, '请输入密码').max(128, '密码最多128个字符'),
  totp: z.string().trim().regex(TOTP_CODE_PATTERN, '请输入 6 位数字验证码').optional(),
});
export type ConsoleLoginBody = z.infer<typeof consoleLoginBody>;

export const consoleLoginAnswer = z.object({
  token: z.string(),
  /** true: the token can only enrol an authenticator (totp_enrolment given) or give a code */
  totp_required: z.boolean(),
  totp_enrolment: z.object({ secret: z.string(), otpauth_url: z.string() }).optional(),
});
export type ConsoleLoginAnswer = z.infer<typeof consoleLoginAnswer>;

/** A 6-digit code of the authenticator, or (once enrolled) one of the recovery codes. */
export const consoleTotpBody = z.object({
  code: z
    .string({ error: '请输入验证码' })
    .trim()
    .min(1, '请输入验证码')
    .refine((code) => TOTP_CODE_PATTERN.test(code) || RECOVERY_CODE_PATTERN.test(code), '请输入 6 位数字验证码或恢复码'),
});
export const consoleTotpAnswer = z.object({
  token: z.string(),
  /** at enrolment only, shown this once: each signs in once in place of a code */
  recovery_codes: z.array(z.string()).optional(),
});

export const operatorView = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(OPERATOR_ROLES),
  status: z.enum(OPERATOR_STATUSES),
  totp_enrolled: z.boolean(),
  last_sign_in_at: z.string().nullable(),
  created_at: z.string(),
});
export type OperatorView = z.infer<typeof operatorView>;

export const consoleMeAnswer = z.object({
  operator: operatorView,
  /** what the operator's role may do: the screens show what it allows */
  actions: z.array(z.string()),
  recovery_codes_left: z.number().int(),
});
export type ConsoleMe = z.infer<typeof consoleMeAnswer>;

export const consoleMerchantAnswer = merchantSchema;

const moneyFigure = z.object({ currency: z.string(), wallets: z.string(), cards: z.string(), total: z.string() });
export const consoleOverviewAnswer = z.object({
  /** the China day the figures of today are of, YYYY-MM-DD */
  day: z.string(),
  held: z.array(moneyFigure),
  cards: z.array(z.object({ status: z.enum(CARD_STATUSES), count: z.number().int() })),
  today: z.array(z.object({ currency: z.string(), spent: z.string(), authorisations: z.number().int(), declined: z.number().int() })),
  jobs: z.object({
    running: z.array(z.object({ kind: z.string(), count: z.number().int() })),
    /** failed in the last 24 hours */
    failed: z.array(z.object({ kind: z.string(), count: z.number().int() })),
  }),
});
export type ConsoleOverview = z.infer<typeof consoleOverviewAnswer>;

export { CONSOLE_JOB_KINDS, consoleJobKindLabel } from './console-labels.ts';

/** What an audit row records: each operator action, by the console or by the command line. */
export const AUDIT_ACTIONS = [
  'SIGN_IN_PASSWORD',
  'SIGN_IN_FAILED',
  'SIGN_IN',
  'TOTP_ENROLLED',
  'RECOVERY_CODE_USED',
  'SIGN_OUT',
  'AUDIT_EXPORTED',
  'OPERATOR_CREATED',
  'OPERATOR_DISABLED',
  'OPERATOR_RESET',
  'PASSWORD_CHANGED',
  'ACTION_CODE_FAILED',
  'PRODUCT_CREATED',
  'PRODUCT_UPDATED',
  'AGREEMENT_PUBLISHED',
  'ANNOUNCEMENT_PUBLISHED',
  'DEPOSIT_CONFIRMED',
  'DEPOSIT_REJECTED',
  'STATEMENT_IMPORTED',
  'MONEY_PROPOSED',
  'MONEY_APPLIED',
  'MONEY_REJECTED',
  'APPROVAL_THRESHOLD_SET',
  ...CUSTOMER_AUDIT_ACTIONS,
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export const auditActionLabel: Record<AuditAction, string> = {
  SIGN_IN_PASSWORD: '密码验证通过',
  SIGN_IN_FAILED: '登录失败',
  SIGN_IN: '登录',
  TOTP_ENROLLED: '绑定身份验证器',
  RECOVERY_CODE_USED: '使用恢复码登录',
  SIGN_OUT: '退出登录',
  AUDIT_EXPORTED: '导出审计日志',
  OPERATOR_CREATED: '创建操作员',
  OPERATOR_DISABLED: '停用操作员',
  OPERATOR_RESET: '重置操作员密码与验证器',
  PASSWORD_CHANGED: '修改登录密码',
  ACTION_CODE_FAILED: '操作验证码错误',
  PRODUCT_CREATED: '新建卡产品',
  PRODUCT_UPDATED: '修改卡产品',
  AGREEMENT_PUBLISHED: '发布用户协议',
  ANNOUNCEMENT_PUBLISHED: '发布公告',
  DEPOSIT_CONFIRMED: '确认充值入账',
  DEPOSIT_REJECTED: '驳回充值通知',
  STATEMENT_IMPORTED: '导入银行对账单',
  MONEY_PROPOSED: '发起资金申请',
  MONEY_APPLIED: '执行资金操作',
  MONEY_REJECTED: '驳回资金申请',
  APPROVAL_THRESHOLD_SET: '设置审批阈值',
  ...customerAuditActionLabel,
};

/** Who did it: an operator in the console, or the server's command line (its actor names the shell user). */
export const AUDIT_CHANNELS = ['CONSOLE', 'CLI'] as const;
export const auditChannelLabel: Record<(typeof AUDIT_CHANNELS)[number], string> = { CONSOLE: '控制台', CLI: '命令行' };

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '请输入正确的日期');
export const auditQuery = z.object({
  operator_id: z.string().uuid('请选择正确的操作员').optional(),
  action: z.enum(AUDIT_ACTIONS, { error: '请选择正确的操作' }).optional(),
  /** YYYY-MM-DD, China time, both included */
  from: day.optional(),
  to: day.optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});
export const auditExportQuery = auditQuery.omit({ page: true, page_size: true });
/** The export's limit: the newest rows that match, at most this many. */
export const AUDIT_EXPORT_MAX = 10_000;

export const auditItem = z.object({
  id: z.string(),
  at: z.string(),
  channel: z.enum(AUDIT_CHANNELS),
  operator_id: z.string().nullable(),
  /** the operator's e-mail, or the command line's user */
  actor: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  target: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  ip: z.string(),
});
export type AuditItem = z.infer<typeof auditItem>;
export const auditPage = z.object({ items: z.array(auditItem), total: z.number().int(), page: z.number().int(), page_size: z.number().int() });

export const operatorList = z.object({ items: z.array(operatorView) });
/** The audit log's operator filter: every operator of the merchant by e-mail and name, for every role. */
export const auditOperatorList = z.object({ items: z.array(z.object({ id: z.string(), email: z.string(), name: z.string() })) });

/** What an operator's own new password must be: it signs in to money and customers. */
export const operatorPasswordRule = { min: 12, max: 128 } as const;
export const operatorPasswordMessage = '新密码须为 12–128 个字符，且同时包含字母和数字';
export const isOperatorPassword = (password: string) =>
  password.length >= operatorPasswordRule.min && password.length <= operatorPasswordRule.max && /[A-Za-z]/.test(password) && /\d/.test(password) && !/\s/.test(password);

/** PUT /auth/password: the operator's own password, with the current one and the authenticator's code. */
export const operatorPasswordBody = z.object({
  current_password: z.string({ error: '请输入当前密码' }).min(1, '请输入当前密码').max(128, '密码最多128个字符'),
  new_password: z.string({ error: operatorPasswordMessage }).refine(isOperatorPassword, operatorPasswordMessage),
  totp: z.string({ error: '请输入 6 位数字验证码' }).trim().regex(TOTP_CODE_PATTERN, '请输入 6 位数字验证码'),
});
export type OperatorPasswordBody = z.infer<typeof operatorPasswordBody>;

/** An ADMIN's change to another operator, with the ADMIN's authenticator code. */
export const operatorActionBody = z.object({
  totp: z.string({ error: '请输入 6 位数字验证码' }).trim().regex(TOTP_CODE_PATTERN, '请输入 6 位数字验证码'),
});
export const operatorCreateBody = operatorActionBody.extend({
  email: operatorEmail,
  name: z.string().trim().max(50, '姓名最多50个字符').optional(),
  role: z.enum(OPERATOR_ROLES, { error: '请选择角色' }),
});
export type OperatorCreateBody = z.infer<typeof operatorCreateBody>;
/** A new or reset operator's password, answered this once. */
export const operatorPasswordAnswer = z.object({ operator: operatorView, password: z.string() });
export type OperatorPasswordAnswer = z.infer<typeof operatorPasswordAnswer>;
