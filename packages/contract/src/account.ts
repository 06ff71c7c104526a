import { z } from 'zod';
import { LOGIN_METHODS, LOGIN_RESULTS, MARK_TYPES, RESET_TYPES, ROLES, SEND_TYPES, SESSION_STAGES } from './enums.ts';
import { messages, phoneInfoSchema, rules, ruled } from './validation.ts';

/** Schemas of the account calls (spec §7); rule messages are the forms' messages. */

const email = ruled(rules.email);
const password = ruled(rules.password);
const captcha = ruled(rules.code);

/** Exactly one of phone_info and email must be given. */
function oneOfPhoneOrEmail(value: { phone_info?: unknown; email?: unknown }, ctx: z.RefinementCtx) {
  if (!value.phone_info && value.email === undefined)
    ctx.addIssue({ code: 'custom', path: ['phone_info'], message: messages.required });
  if (value.phone_info && value.email !== undefined)
    ctx.addIssue({ code: 'custom', path: ['email'], message: '请选择手机号或邮箱其中一种' });
}

export const loginBody = z
  .object({ phone_info: phoneInfoSchema.optional(), email: email.optional(), password })
  .superRefine(oneOfPhoneOrEmail);
export type LoginBody = z.infer<typeof loginBody>;
export const loginAnswer = z.object({
  token: z.string(),
  /** the account's e-mail, or null while it has none */
  email: z.string().nullable(),
  /** true when this device must pass the second verification first */
  check: z.boolean(),
});
export type LoginAnswer = z.infer<typeof loginAnswer>;

export const sendCodeBody = z
  .object({
    send_type: z.enum(SEND_TYPES),
    mark_type: z.enum(MARK_TYPES),
    phone_info: phoneInfoSchema.optional(),
    email: email.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.send_type === 'SEND_TYPE_PHONE' && !value.phone_info)
      ctx.addIssue({ code: 'custom', path: ['phone_info', 'phone'], message: messages.phoneForCode });
    if (value.send_type === 'SEND_TYPE_EMAIL' && value.email === undefined)
      ctx.addIssue({ code: 'custom', path: ['email'], message: messages.emailForCode });
  });
export type SendCodeBody = z.infer<typeof sendCodeBody>;

export const sendCodeAnswer = z.object({
  /** seconds until another code may be requested */
  resend_after: z.number().int(),
  /** where it went, masked: "+86 138****8000" or "a***@b.com" */
  masked_target: z.string(),
});
export type SendCodeAnswer = z.infer<typeof sendCodeAnswer>;

/**
 * A code to the signed-in account's own phone or e-mail, whichever it is now: an access code, or the
 * code of the current address at an e-mail or phone change (MARK_TYPE_CHANGE_EMAIL by e-mail,
 * MARK_TYPE_CHANGE_PHONE by phone), so the screen need not name an address it may hold out of date.
 */
export const sendCodeAutoBody = z.object({
  send_type: z.enum(SEND_TYPES),
  mark_type: z.enum(['MARK_TYPE_ACCESS', 'MARK_TYPE_CHANGE_EMAIL', 'MARK_TYPE_CHANGE_PHONE']),
});
export type SendCodeAutoBody = z.infer<typeof sendCodeAutoBody>;

export const codeCheckBody = z.object({
  captcha,
  thirty_day: z.boolean().default(false),
  send_type: z.enum(SEND_TYPES),
});
export const codeCheckAnswer = z.object({ token: z.string(), email: z.string().nullable() });
export type CodeCheckAnswer = z.infer<typeof codeCheckAnswer>;

export const registerBody = z.object({
  phone_prefix: phoneInfoSchema.shape.phone_prefix,
  phone: ruled(rules.phone),
  password,
  captcha,
  invitation_code: z
    .string()
    .nullable()
    .default(null)
    .superRefine((value, ctx) => {
      const message = value === null ? null : rules.invitationCode(value);
      if (message) ctx.addIssue({ code: 'custom', message });
    }),
  /** a team's invitation (the token of /sign-up?invitation=…): the new member joins that team, no account is made */
  invitation: z.string().max(200).optional(),
});
export type RegisterBody = z.infer<typeof registerBody>;
/**
 * A sign-up's session. signed_in: it is a full sign-in (an invitation by e-mail gave the new member
 * that e-mail); otherwise the token can only bind an e-mail.
 */
export const registerAnswer = z.object({ token: z.string(), signed_in: z.boolean() });
export type RegisterAnswer = z.infer<typeof registerAnswer>;

export const bindEmailBody = z.object({ email, captcha });
export const bindEmailAnswer = z.object({ token: z.string().optional() });
export type BindEmailAnswer = z.infer<typeof bindEmailAnswer>;

export const forgetCodeBody = z
  .object({
    phone_info: phoneInfoSchema.optional(),
    email: email.optional(),
    type: z.enum(RESET_TYPES).default('FORGET_PASSWORD'),
  })
  .superRefine(oneOfPhoneOrEmail);
export const forgetCheckBody = z.object({ phone_info: phoneInfoSchema, captcha });
export const forgetCheckAnswer = z.object({
  /** single-use permission for PUT /account/forget-password, valid 10 minutes */
  ticket: z.string(),
});
export type ForgetCheckAnswer = z.infer<typeof forgetCheckAnswer>;

export const forgetPasswordBody = z
  .object({
    phone_info: phoneInfoSchema.optional(),
    ticket: z.string().max(200).optional(),
    email: email.optional(),
    captcha: captcha.optional(),
    password,
  })
  .superRefine((value, ctx) => {
    if (value.phone_info) {
      if (!value.ticket) ctx.addIssue({ code: 'custom', path: ['ticket'], message: '验证已失效，请重新获取验证码' });
    } else if (value.email !== undefined) {
      if (value.captcha === undefined) ctx.addIssue({ code: 'custom', path: ['captcha'], message: messages.code });
    } else {
      ctx.addIssue({ code: 'custom', path: ['phone_info'], message: messages.required });
    }
  });

export const forgetTrxPasswordBody = z.object({ email, trx_password: ruled(rules.tradePassword), captcha });

/**
 * PUT /account/trx-password: sets the trade password the first time, with the login password (a
 * session alone must not be enough to start moving money), or changes it with the current one. The
 * confirmation typed twice is the form's own check.
 */
export const trxPasswordBody = z.object({
  trx_password: ruled(rules.tradePassword),
  /** the current trade password; required once one is set */
  old_trx_password: z.string().max(100).optional(),
  /** the login password; required to set the first trade password, a wrong one counts toward the sign-in lock */
  password: z.string().max(100).optional(),
});
export type TrxPasswordBody = z.infer<typeof trxPasswordBody>;

/**
 * POST /account/forget-password/link: is an e-mailed reset link still good? Asked when the link is
 * opened, so a used or expired one says so at once; it does not use the code up (a wrong code counts
 * as a try, as everywhere).
 */
export const resetLinkBody = z.object({ email, captcha, type: z.enum(['FORGET_PASSWORD', 'FORGET_TRX_PASSWORD']) });
export const resetLinkAnswer = z.object({
  /** when the link stops working, ISO 8601 */
  expires_at: z.string(),
});
export type ResetLinkAnswer = z.infer<typeof resetLinkAnswer>;

export const accountInfo = z.object({
  id: z.string(),
  email: z.string().nullable(),
  phone: z.string(),
  phone_prefix: z.string(),
  /** whether the account has a trade password, which calls moving money out then require */
  trx_password_set: z.boolean(),
  /** the member signed in (the person); id is the account (the company) they act for */
  member_id: z.string(),
  role: z.enum(ROLES),
  /** the company's name as the team set it, or one made from the owner's phone */
  account_name: z.string(),
});
export type AccountInfo = z.infer<typeof accountInfo>;

export const trustedDevice = z.object({
  id: z.string(),
  /** the browser's user agent as it was trusted */
  label: z.string(),
  /** browser and system, read from it: "Chrome 131 · Windows" */
  device: z.string(),
  /** the address it was last used from */
  ip: z.string(),
  created_at: z.string(),
  last_used_at: z.string(),
  expires_at: z.string(),
  current: z.boolean(),
});

/* The security centre (/settings): its overview, the login password, e-mail and phone changes, sessions, sign-in history. */

export const securityOverview = z.object({
  id: z.string(),
  /** masked: 138****8000 */
  phone: z.string(),
  phone_prefix: z.string(),
  email: z.string().nullable(),
  created_at: z.string(),
  /** the customer manager whose invitation code the account signed up with */
  manager: z.object({ name: z.string(), invitation_code: z.string() }).nullable(),
  trx_password_set: z.boolean(),
  trusted_devices: z.number().int(),
  /** live sessions, this one included */
  sessions: z.number().int(),
  /** the newest successful sign-in */
  last_sign_in: z.object({ at: z.string(), ip: z.string(), device: z.string() }).nullable(),
});
export type SecurityOverview = z.infer<typeof securityOverview>;

export const changePasswordBody = z.object({
  old_password: z.string({ error: messages.required }).min(1, messages.required).max(64),
  password,
});
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;
export const changePasswordAnswer = z.object({
  /** how many other sessions of the account were ended (this one stays) */
  ended_sessions: z.number().int(),
});
export type ChangePasswordAnswer = z.infer<typeof changePasswordAnswer>;

/** The old address's code (`old_captcha`, MARK_TYPE_CHANGE_EMAIL to the account's e-mail) and the new one's. */
export const changeEmailBody = z.object({ email, old_captcha: captcha, captcha });
export type ChangeEmailBody = z.infer<typeof changeEmailBody>;
export const changeEmailAnswer = z.object({ email: z.string() });
export type ChangeEmailAnswer = z.infer<typeof changeEmailAnswer>;

/** The old phone's code (`old_captcha`, MARK_TYPE_CHANGE_PHONE to the account's phone) and the new one's. */
export const changePhoneBody = z.object({ phone_info: phoneInfoSchema, old_captcha: captcha, captcha });
export type ChangePhoneBody = z.infer<typeof changePhoneBody>;
export const changePhoneAnswer = z.object({
  /** masked */
  phone: z.string(),
  phone_prefix: z.string(),
});
export type ChangePhoneAnswer = z.infer<typeof changePhoneAnswer>;

export type TrustedDevice = z.infer<typeof trustedDevice>;

export const accountSession = z.object({
  id: z.string(),
  /** browser and system, read from the user agent: "Chrome 131 · Windows" */
  device: z.string(),
  ip: z.string(),
  created_at: z.string(),
  last_active_at: z.string(),
  /** VERIFY: the password was right, the second verification is still to come */
  stage: z.enum(SESSION_STAGES),
  /** the session of this request */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSession>;

export const endSessionsQuery = z.object({
  others: z.literal('true', { error: '请指定结束其他全部会话（others=true）' }),
});
export const endSessionsAnswer = z.object({ ended_sessions: z.number().int() });
export type EndSessionsAnswer = z.infer<typeof endSessionsAnswer>;

export const loginAttempt = z.object({
  id: z.string(),
  at: z.string(),
  ip: z.string(),
  device: z.string(),
  method: z.enum(LOGIN_METHODS),
  result: z.enum(LOGIN_RESULTS),
});
export type LoginAttempt = z.infer<typeof loginAttempt>;

/** How many sign-in attempts GET /account/login-history answers (the newest). */
export const LOGIN_HISTORY_SIZE = 50;
