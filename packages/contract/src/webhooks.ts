/**
 * Webhooks for customers (shared/design/growing-customers.md §4): endpoints a team registers to hear
 * of changes as they happen. Each delivery's body is `{id, type, created_at, data}`, signed with the
 * Standard Webhooks scheme (`webhook-id`, `webhook-timestamp`, `webhook-signature`) with the endpoint's
 * secret (`whsec_…`), and retried on the schedule below until it is answered with a 2xx.
 */
import { z } from 'zod';

export const WEBHOOK_EVENT_TYPES = [
  'card.created',
  'card.failed',
  'card.status_changed',
  'card.balance_low',
  'transaction.created',
  'transaction.updated',
  'three_ds.code',
  'wallet.balance_changed',
  'batch.finished',
  'bulk_action.finished',
  'deposit.credited',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'card.created': '开卡成功',
  'card.failed': '开卡失败',
  'card.status_changed': '卡片状态变更（冻结、解冻、注销）',
  'card.balance_low': '卡片余额低于提醒值',
  'transaction.created': '新交易（授权通过或被拒）',
  'transaction.updated': '交易状态变更（结算、撤销、退款）',
  'three_ds.code': '3-D Secure 验证码',
  'wallet.balance_changed': '钱包余额变动',
  'batch.finished': '批量开卡完成',
  'bulk_action.finished': '批量操作完成',
  'deposit.credited': '充值到账',
};

/** Events an endpoint receives only when chosen by name: a 3-D Secure code is a secret of its own. */
export const WEBHOOK_OPT_IN_EVENTS: readonly WebhookEventType[] = ['three_ds.code'];

/** Endpoints an account may hold. */
export const WEBHOOK_ENDPOINTS_MAX = 10;
export const WEBHOOK_URL_MAX = 2048;
export const WEBHOOK_DESCRIPTION_MAX = 200;
/** Characters of an endpoint's answer kept in the delivery log. */
export const WEBHOOK_ANSWER_EXCERPT = 500;
/** A send not answered within this is a failed try. */
export const WEBHOOK_TIMEOUT_SECONDS = 30;
/** After the nth failed try the next waits the nth of these; past them, every `WEBHOOK_RETRY_EVERY_SECONDS`. */
export const WEBHOOK_RETRY_DELAYS_SECONDS = [5, 30, 120, 600, 1800, 3600] as const;
export const WEBHOOK_RETRY_EVERY_SECONDS = 3 * 3600;
/** An event is given up this long after it was first tried; an endpoint failing this long is disabled. */
export const WEBHOOK_GIVE_UP_SECONDS = 3 * 24 * 3600;

/** Host names an endpoint outside production may reach over plain http. */
export const WEBHOOK_LOCAL_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

export const webhookMessages = {
  url: '请输入正确的回调地址，例如 https://example.com/webhooks',
  urlScheme: '回调地址须以 https:// 开头（测试环境也可使用 http://localhost）',
  events: '请至少选择一个事件',
  eventUnknown: '未知的事件类型',
  description: `备注最多 ${WEBHOOK_DESCRIPTION_MAX} 个字符`,
} as const;

/**
 * Why `text` cannot be an endpoint's address, or null: https only in production; outside production
 * also http to this machine. Whether the host resolves to a private address is the server's to check.
 */
export function webhookUrlProblem(text: string, production: boolean): string | null {
  if (!URL.canParse(text) || text.length > WEBHOOK_URL_MAX) return webhookMessages.url;
  const url = new URL(text);
  if (url.username || url.password || url.hostname === '') return webhookMessages.url;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && !production && (WEBHOOK_LOCAL_HOSTS as readonly string[]).includes(url.hostname)) return null;
  return webhookMessages.urlScheme;
}

const urlField = z.string().trim().min(1, webhookMessages.url).max(WEBHOOK_URL_MAX, webhookMessages.url).refine((text) => webhookUrlProblem(text, false) === null, { message: webhookMessages.urlScheme });
const eventsField = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: webhookMessages.eventUnknown }))
  .min(1, webhookMessages.events)
  .transform((events) => [...new Set(events)]);
const descriptionField = z.string().trim().max(WEBHOOK_DESCRIPTION_MAX, webhookMessages.description);

export const createWebhookBody = z.object({ url: urlField, events: eventsField, description: descriptionField.optional() });
export type CreateWebhookBody = z.input<typeof createWebhookBody>;

export const updateWebhookBody = z.object({
  url: urlField.optional(),
  events: eventsField.optional(),
  description: descriptionField.optional(),
  /** false disables the endpoint (nothing is sent to it); true enables it again */
  enabled: z.boolean().optional(),
});
export type UpdateWebhookBody = z.input<typeof updateWebhookBody>;

export const WEBHOOK_STATUSES = ['ACTIVE', 'DISABLED'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];
export const WEBHOOK_STATUS_LABELS: Record<WebhookStatus, string> = { ACTIVE: '启用', DISABLED: '已停用' };
/** MANUAL: a member disabled it; FAILING: it failed every try for three days. */
export const WEBHOOK_DISABLED_REASONS = ['MANUAL', 'FAILING'] as const;
export type WebhookDisabledReason = (typeof WEBHOOK_DISABLED_REASONS)[number];
export const WEBHOOK_DISABLED_REASON_LABELS: Record<WebhookDisabledReason, string> = { MANUAL: '已手动停用', FAILING: '连续 3 天发送失败，已自动停用' };

export const webhookItem = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  description: z.string(),
  status: z.enum(WEBHOOK_STATUSES),
  disabled_reason: z.enum(WEBHOOK_DISABLED_REASONS).nullable(),
  /** the secret's first characters, enough to tell which one a receiver holds */
  secret_hint: z.string(),
  /** since when every try has failed (null while the last one succeeded) */
  failing_since: z.string().nullable(),
  created_at: z.string(),
});
export type WebhookItem = z.infer<typeof webhookItem>;
export const webhookList = z.object({ items: z.array(webhookItem) });
/** A created endpoint, or one whose secret was rotated: the secret, shown this once. */
export const webhookSecret = webhookItem.extend({ secret: z.string() });
export type WebhookSecret = z.infer<typeof webhookSecret>;
export const webhookIdParams = z.object({ id: z.string() });

export const WEBHOOK_DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'FAILED'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
export const WEBHOOK_DELIVERY_STATUS_LABELS: Record<WebhookDeliveryStatus, string> = { PENDING: '等待发送', DELIVERED: '已送达', FAILED: '已放弃' };

export const webhookAttempt = z.object({
  at: z.string(),
  /** null: no answer (refused, timed out, or the address was not allowed) */
  status_code: z.number().int().nullable(),
  error: z.string().nullable(),
  answer_excerpt: z.string(),
  duration_ms: z.number().int(),
});
export type WebhookAttempt = z.infer<typeof webhookAttempt>;

export const webhookDelivery = z.object({
  id: z.string(),
  event_id: z.string(),
  event_type: z.enum(WEBHOOK_EVENT_TYPES),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
  /** the tries, newest first */
  log: z.array(webhookAttempt),
  /** the body as it is sent */
  payload: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDelivery>;

export const webhookDeliveriesQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
});
export const webhookDeliveryPage = z.object({ items: z.array(webhookDelivery), total: z.number().int(), page: z.number().int(), page_size: z.number().int() });
export type WebhookDeliveryPage = z.infer<typeof webhookDeliveryPage>;

/** What an endpoint receives. */
export interface WebhookBody<Data = Record<string, unknown>> {
  id: string;
  type: WebhookEventType;
  created_at: string;
  data: Data;
}
