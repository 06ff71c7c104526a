/**
 * The codes of USDT top-ups (3131–3159): the crypto gateway's webhooks and the address; the error
 * catalogue gives each its HTTP status, 中文 message and meaning.
 */
export const UsdtErrorCode = {
  GATEWAY_SIGNATURE_INVALID: 3131,
  GATEWAY_EVENT_INVALID: 3132,
  DEPOSIT_ON_CHAIN: 3133,
  GATEWAY_UNAVAILABLE: 3134,
  GATEWAY_AMOUNT_INVALID: 3135,
} as const;
