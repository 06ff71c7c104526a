/**
 * The codes of the card calls' refusals (4xxx; 49xx the card issuer's webhook; and 1008 for a money-moving call without its key); the
 * error catalogue gives each its HTTP status, 中文 message and meaning. Apart from errors.ts so that the
 * sign-in page, which reads that file, does not carry them.
 */
export const CardErrorCode = {
CARD_NOT_FOUND: 4001,
  CARD_ACTION_NOT_ALLOWED: 4002,
  CARD_NOT_VERIFIED: 4003,
  CARD_SECONDARY_REQUIRED: 4004,
  PRODUCT_UNAVAILABLE: 4005,
  CARD_QUOTA_USED: 4006,
  CARD_AMOUNT_BELOW_MIN: 4007,
  CARD_BALANCE_ABOVE_MAX: 4008,
  REVEAL_CODE_REQUIRED: 4009,
  REVEAL_LIMIT: 4010,
  CARD_FROZEN_BY_OTHERS: 4011,
  ISSUER_UNAVAILABLE: 4012,
  SENSITIVE_EXPORT_DAILY_LIMIT: 4013,
  EXPORT_FILE_DAMAGED: 4014,
  IDEMPOTENCY_KEY_MISSING: 1008,
  ISSUER_SIGNATURE_INVALID: 4901,
  ISSUER_EVENT_INVALID: 4902,
  AUTHORIZATION_NOT_YET: 4903,
} as const;
