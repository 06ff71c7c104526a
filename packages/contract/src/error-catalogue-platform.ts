import type { CatalogueEntry } from './error-catalogue-entry.ts';
import { ErrorCode } from './errors.ts';

/** Sessions, validation and what any call can meet. */
export const platformErrors: Record<number, CatalogueEntry> = {
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
    meaning:
      'The session was ended: logged out, replaced after a password reset or change, ended from the security centre (one session, or ' +
      "all but the one asking), or revoked by the operator. A stream of the session ends with a last event SESSION_ENDED carrying this code.",
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
  [ErrorCode.METHOD_NOT_ALLOWED]: {
    status: 405,
    message: '不支持该请求方式',
    meaning: 'The path exists, but not with this method; the Allow header lists the methods it answers.',
  },
  [ErrorCode.AGREEMENT_NOT_FOUND]: {
    status: 404,
    message: '用户协议不存在',
    meaning: 'No agreement with that id is published for this merchant.',
  },
  [ErrorCode.MESSAGE_NOT_FOUND]: {
    status: 404,
    message: '消息不存在',
    meaning: 'No station message of this account, nor announcement of this merchant, has that id.',
  },
};
