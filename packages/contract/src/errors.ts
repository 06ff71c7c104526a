/**
 * The error catalogue: each failure the API can answer, its HTTP status, its 中文 message and what it
 * means. Messages may hold `{name}` placeholders filled from the error's params.
 * Numbering: 6xx and 1000 are the session codes the portal logs out on (spec §8); 1xxx general,
 * 2xxx accounts and codes, 3xxx money, 4xxx cards, 5xxx messages.
 */
export interface CatalogueEntry {
  status: number;
  message: string;
  meaning: string;
}

export const ErrorCode = {
  OK: 0,
  SESSION_MISSING: 605,
  SESSION_UNKNOWN: 606,
  SESSION_EXPIRED: 607,
  SESSION_REVOKED: 608,
  ACCOUNT_DISABLED: 1000,
  VALIDATION: 1001,
  NOT_FOUND: 1002,
  MERCHANT_UNKNOWN: 1003,
  RATE_LIMITED: 1004,
  INTERNAL: 1005,
  IDEMPOTENCY_CONFLICT: 1006,
  PAYLOAD_TOO_LARGE: 1007,
  AGREEMENT_NOT_FOUND: 1101,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

export const errorCatalogue: Record<number, CatalogueEntry> = {
  [ErrorCode.SESSION_MISSING]: {
    status: 401,
    message: '请先登录',
    meaning: 'The call needs a session and carried no bearer token.',
  },
  [ErrorCode.SESSION_UNKNOWN]: {
    status: 401,
    message: '登录状态无效，请重新登录',
    meaning: 'The bearer token is not a session of this merchant (never issued, mistyped, or issued by another merchant).',
  },
  [ErrorCode.SESSION_EXPIRED]: {
    status: 401,
    message: '登录已过期，请重新登录',
    meaning: 'The session was idle longer than the idle expiry (7 days).',
  },
  [ErrorCode.SESSION_REVOKED]: {
    status: 401,
    message: '登录已失效，请重新登录',
    meaning: 'The session was ended: logged out, replaced after a password reset, or revoked by the operator.',
  },
  [ErrorCode.ACCOUNT_DISABLED]: {
    status: 403,
    message: '账户已被停用，请联系客服',
    meaning: 'The account behind the session was disabled by the merchant.',
  },
  [ErrorCode.VALIDATION]: {
    status: 400,
    message: '请求参数有误',
    meaning: 'The body, query or path failed validation; message is the first field rule that failed, data.fields lists all.',
  },
  [ErrorCode.NOT_FOUND]: {
    status: 404,
    message: '请求的内容不存在',
    meaning: 'No such route or no such record visible to the caller.',
  },
  [ErrorCode.MERCHANT_UNKNOWN]: {
    status: 404,
    message: '该站点尚未开通，请确认访问地址',
    meaning: 'The request host is not a host of any merchant.',
  },
  [ErrorCode.RATE_LIMITED]: {
    status: 429,
    message: '操作过于频繁，请{seconds}秒后再试',
    meaning: 'A rate limit was reached; data.retry_after is the number of seconds to wait.',
  },
  [ErrorCode.INTERNAL]: {
    status: 500,
    message: '服务繁忙，请稍后重试',
    meaning: 'An unexpected server failure; nothing was changed.',
  },
  [ErrorCode.IDEMPOTENCY_CONFLICT]: {
    status: 409,
    message: '请求编号已被另一笔不同的请求使用',
    meaning: 'An idempotency key was reused with a different body.',
  },
  [ErrorCode.PAYLOAD_TOO_LARGE]: {
    status: 413,
    message: '请求内容过大',
    meaning: 'The request body exceeds the size limit.',
  },
  [ErrorCode.AGREEMENT_NOT_FOUND]: {
    status: 404,
    message: '用户协议不存在',
    meaning: 'No agreement with that id is published for this merchant.',
  },
};

/** Codes on which the portal shows the message, logs out and rejects the call (spec §8). */
export const SESSION_ERROR_CODES: readonly number[] = [
  ErrorCode.SESSION_MISSING,
  ErrorCode.SESSION_UNKNOWN,
  ErrorCode.SESSION_EXPIRED,
  ErrorCode.SESSION_REVOKED,
  ErrorCode.ACCOUNT_DISABLED,
];

export const isSessionErrorCode = (code: number) => SESSION_ERROR_CODES.includes(code);

export function formatMessage(template: string, params: Record<string, string | number> = {}) {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in params ? String(params[key]) : whole,
  );
}
