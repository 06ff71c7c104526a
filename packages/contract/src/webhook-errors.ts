/** The codes of customers' webhooks (1231–1259); the error catalogue gives each its status, 中文 message and meaning. */
export const WebhookErrorCode = {
  WEBHOOK_NOT_FOUND: 1231,
  WEBHOOK_URL_SCHEME: 1232,
  WEBHOOK_URL_PRIVATE: 1233,
  WEBHOOK_URL_UNRESOLVED: 1234,
  WEBHOOK_LIMIT: 1235,
  WEBHOOK_DELIVERY_NOT_FOUND: 1236,
  WEBHOOK_DISABLED: 1237,
} as const;
