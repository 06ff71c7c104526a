import { API_KEY_RATE_PER_SECOND } from './developer.ts';
import { ApiKeyErrorCode } from './developer-errors.ts';
import type { CatalogueEntry } from './error-catalogue-entry.ts';

/** The open API's keys. */
export const developerErrors: Record<number, CatalogueEntry> = {
  [ApiKeyErrorCode.KEY_UNKNOWN]: {
    status: 401,
    message: 'API 密钥无效',
    meaning: 'No key of this merchant has that secret (a mistyped key, another merchant’s, or one whose overlap after a rotation ended).',
  },
  [ApiKeyErrorCode.KEY_REVOKED]: {
    status: 401,
    message: 'API 密钥已被撤销',
    meaning: 'The key was revoked (or its member suspended or removed); it is refused from the next call on.',
  },
  [ApiKeyErrorCode.KEY_EXPIRED]: {
    status: 401,
    message: 'API 密钥已过期',
    meaning: 'The key’s expires_at has passed.',
  },
  [ApiKeyErrorCode.KEY_IP_REFUSED]: {
    status: 403,
    message: '请求来源 IP 不在该 API 密钥的白名单中',
    meaning: 'The key has an IP allow-list and the caller’s address is in none of its ranges; data.ip names the address seen.',
  },
  [ApiKeyErrorCode.KEY_CALL_REFUSED]: {
    status: 403,
    message: '该接口不支持 API 密钥调用，请登录后操作',
    meaning: 'The call is not open to keys: sign-in, the security centre, members, keys and webhooks are for signed-in members only.',
  },
  [ApiKeyErrorCode.KEY_SCOPE_MISSING]: {
    status: 403,
    message: 'API 密钥缺少权限范围：{scope}',
    meaning: 'The call needs a scope the key does not carry; data.scope names it.',
  },
  [ApiKeyErrorCode.KEY_NOT_FOUND]: {
    status: 404,
    message: 'API 密钥不存在',
    meaning: 'No key of this account has that id (or, for a MEMBER-level caller, none of theirs).',
  },
  [ApiKeyErrorCode.KEY_SCOPE_NOT_ALLOWED]: {
    status: 403,
    message: '您的角色不能创建含有“{scope}”权限范围的 API 密钥',
    meaning: 'A key may carry only scopes its member’s role can use (FINANCE: read scopes only); data.scope names the first that cannot.',
  },
  [ApiKeyErrorCode.KEY_LIMIT]: {
    status: 409,
    message: '每个账户最多保留 {max} 个有效的 API 密钥，请先撤销不用的密钥',
    meaning: 'An account holds at most API_KEYS_MAX keys that are not revoked or expired.',
  },
  [ApiKeyErrorCode.KEY_IDEMPOTENCY_REQUIRED]: {
    status: 400,
    message: '使用 API 密钥调用写操作时必须携带 Idempotency-Key 请求头',
    meaning: 'Every call a key makes that changes something needs an Idempotency-Key (8–128 visible ASCII characters).',
  },
  [ApiKeyErrorCode.KEY_RATE_LIMITED]: {
    status: 429,
    message: `API 密钥请求过于频繁（每秒最多 ${API_KEY_RATE_PER_SECOND} 次），请 {seconds} 秒后重试`,
    meaning:
      'The key made more than API_KEY_RATE_PER_SECOND calls in the current second, counted across every server process; the Retry-After header and data.retry_after give the seconds to wait.',
  },
  [ApiKeyErrorCode.KEY_REQUEST_IN_PROGRESS]: {
    status: 409,
    message: '使用相同 Idempotency-Key 的请求仍在处理中，请稍后重试',
    meaning: 'A key’s write came again under its Idempotency-Key while the first is still being answered; retried later, it gets the first answer.',
  },
};
