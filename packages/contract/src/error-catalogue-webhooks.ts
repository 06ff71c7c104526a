import type { CatalogueEntry } from './error-catalogue-entry.ts';
import { WebhookErrorCode } from './webhook-errors.ts';
import { WEBHOOK_ENDPOINTS_MAX } from './webhooks.ts';

/** Customers' webhooks. */
export const webhookErrors: Record<number, CatalogueEntry> = {
  [WebhookErrorCode.WEBHOOK_NOT_FOUND]: {
    status: 404,
    message: 'Webhook 端点不存在',
    meaning: 'No endpoint of this account has that id.',
  },
  [WebhookErrorCode.WEBHOOK_URL_SCHEME]: {
    status: 400,
    message: '回调地址须以 https:// 开头',
    meaning: 'In production an endpoint is reached over https only; outside production also over http to localhost, 127.0.0.1 and [::1].',
  },
  [WebhookErrorCode.WEBHOOK_URL_PRIVATE]: {
    status: 400,
    message: '回调地址不能指向内网、本机或保留地址',
    meaning: 'In production the host resolves to a private, loopback, link-local or unique-local address (checked when the endpoint is saved and again before each send).',
  },
  [WebhookErrorCode.WEBHOOK_URL_UNRESOLVED]: {
    status: 400,
    message: '无法解析回调地址的域名，请检查后重试',
    meaning: 'In production the host name has no address.',
  },
  [WebhookErrorCode.WEBHOOK_LIMIT]: {
    status: 409,
    message: `每个账户最多添加 ${WEBHOOK_ENDPOINTS_MAX} 个 Webhook 端点`,
    meaning: 'An account holds at most WEBHOOK_ENDPOINTS_MAX endpoints.',
  },
  [WebhookErrorCode.WEBHOOK_DELIVERY_NOT_FOUND]: {
    status: 404,
    message: '发送记录不存在',
    meaning: 'No delivery to an endpoint of this account has that id.',
  },
  [WebhookErrorCode.WEBHOOK_DISABLED]: {
    status: 409,
    message: '该 Webhook 端点已停用，请先启用后再重新发送',
    meaning: 'A redelivery to a disabled endpoint: enable it first.',
  },
};
