import type { CatalogueEntry } from './error-catalogue-entry.ts';

/** The console's codes (6001–6099): an operator's sign-in, session and role. */
export const ConsoleErrorCode = {
  SIGN_IN_REQUIRED: 6001,
  SESSION_INVALID: 6002,
  SESSION_EXPIRED: 6003,
  TOKEN_ON_PORTAL: 6004,
  BAD_CREDENTIALS: 6005,
  LOCKED: 6006,
  OPERATOR_DISABLED: 6007,
  TOTP_REQUIRED: 6008,
  TOTP_WRONG: 6009,
  ROLE_DENIED: 6010,
  OPERATOR_NOT_FOUND: 6011,
  EMAIL_TAKEN: 6012,
  STAGE_WRONG: 6013,
  PORTAL_TOKEN_ON_CONSOLE: 6014,
  OPERATOR_SELF: 6015,
  PASSWORD_WRONG: 6016,
  PASSWORD_SAME: 6017,
} as const;

/** The codes after which the console signs out and shows its sign-in page. */
export const CONSOLE_SESSION_CODES: readonly number[] = [
  ConsoleErrorCode.SIGN_IN_REQUIRED,
  ConsoleErrorCode.SESSION_INVALID,
  ConsoleErrorCode.SESSION_EXPIRED,
  ConsoleErrorCode.OPERATOR_DISABLED,
  ConsoleErrorCode.PORTAL_TOKEN_ON_CONSOLE,
];

const lockWarning = '邮箱、密码或验证码错误，再错 {remaining} 次将锁定 {minutes} 分钟';

export const consoleErrors: Record<number, CatalogueEntry> = {
  [ConsoleErrorCode.SIGN_IN_REQUIRED]: { status: 401, message: '请先登录控制台', meaning: 'A console call without a bearer token.' },
  [ConsoleErrorCode.SESSION_INVALID]: {
    status: 401,
    message: '控制台登录已失效，请重新登录',
    meaning: 'No live operator session of this merchant has that token (unknown, signed out, another merchant’s, or ended by a reset or a disable).',
  },
  [ConsoleErrorCode.SESSION_EXPIRED]: {
    status: 401,
    message: '控制台登录已过期，请重新登录',
    meaning: 'The operator session was idle for 30 minutes or is 12 hours old.',
  },
  [ConsoleErrorCode.TOKEN_ON_PORTAL]: {
    status: 401,
    message: '控制台的登录凭证不能用于客户门户',
    meaning: 'A portal call was made with an operator’s token (op_…): operators are no customers.',
  },
  [ConsoleErrorCode.BAD_CREDENTIALS]: {
    status: 401,
    message: '邮箱或密码错误',
    variants: { lockWarning },
    meaning: 'No active operator of this merchant has that e-mail and password; data.remaining counts the tries left from the third wrong one.',
  },
  [ConsoleErrorCode.LOCKED]: {
    status: 429,
    message: '错误次数过多，请 {minutes} 分钟后再试',
    meaning: 'Five wrong passwords or codes in 15 minutes lock the operator’s sign-in for 15 minutes; data.retry_after in seconds.',
  },
  [ConsoleErrorCode.OPERATOR_DISABLED]: { status: 403, message: '该操作员账号已停用', meaning: 'The operator was disabled (ops operator:disable).' },
  [ConsoleErrorCode.TOTP_REQUIRED]: {
    status: 401,
    message: '请先完成两步验证',
    meaning: 'The token’s sign-in has not given its TOTP code yet: it can only enrol an authenticator or give a code.',
  },
  [ConsoleErrorCode.TOTP_WRONG]: {
    status: 400,
    message: '验证码错误或已使用',
    variants: { lockWarning },
    meaning: 'The code is not the authenticator’s for this 30-second step or the one either side, was used already, or is no unused recovery code.',
  },
  [ConsoleErrorCode.ROLE_DENIED]: {
    status: 403,
    message: '权限不足：仅{roles}可以执行此操作',
    meaning: 'The operator’s role may not make this call; data.action names what it needs.',
  },
  [ConsoleErrorCode.OPERATOR_NOT_FOUND]: { status: 404, message: '操作员不存在', meaning: 'No operator of this merchant has that id or e-mail.' },
  [ConsoleErrorCode.EMAIL_TAKEN]: { status: 409, message: '该邮箱已是本商户的操作员', meaning: 'An operator of this merchant already has that e-mail.' },
  [ConsoleErrorCode.STAGE_WRONG]: {
    status: 400,
    message: '当前登录状态无需此操作',
    meaning: 'The call is for a sign-in that has not given its code (POST /auth/totp with a signed-in token, or the reverse).',
  },
  [ConsoleErrorCode.PORTAL_TOKEN_ON_CONSOLE]: {
    status: 401,
    message: '请使用控制台操作员账号登录',
    meaning: 'A console call was made with a customer’s session token or an API key: the console takes operators’ tokens only.',
  },
  [ConsoleErrorCode.OPERATOR_SELF]: {
    status: 400,
    message: '不能停用或重置自己的账号；如需修改密码，请在“修改密码”中操作',
    meaning: 'An ADMIN tried to disable or reset their own operator account from the console (another ADMIN or the command line may).',
  },
  [ConsoleErrorCode.PASSWORD_WRONG]: {
    status: 400,
    message: '当前密码错误',
    meaning: 'PUT /auth/password: the current password is not the operator’s; the try counts towards the sign-in lock.',
  },
  [ConsoleErrorCode.PASSWORD_SAME]: { status: 400, message: '新密码不能与当前密码相同', meaning: 'PUT /auth/password: the new password is the current one.' },
};
