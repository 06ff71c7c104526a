/**
 * The codes of the open API's keys (1201–1229): a key that is unknown, revoked, expired, used from an
 * address its allow-list does not hold, on a call its scopes do not cover, or faster than its rate limit; the error catalogue gives
 * each its HTTP status, 中文 message and meaning.
 */
export const ApiKeyErrorCode = {
  KEY_UNKNOWN: 1201,
  KEY_REVOKED: 1202,
  KEY_EXPIRED: 1203,
  KEY_IP_REFUSED: 1204,
  KEY_CALL_REFUSED: 1205,
  KEY_SCOPE_MISSING: 1206,
  KEY_NOT_FOUND: 1207,
  KEY_SCOPE_NOT_ALLOWED: 1208,
  KEY_LIMIT: 1209,
  KEY_IDEMPOTENCY_REQUIRED: 1210,
  KEY_RATE_LIMITED: 1211,
  KEY_REQUEST_IN_PROGRESS: 1212,
} as const;
