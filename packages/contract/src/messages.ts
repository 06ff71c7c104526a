import { z } from 'zod';
import { accountBalanceItem, cardAmountItem } from './wallet.ts';

/** The message center (spec §7 msg-center calls, product.md §6). */

export const MESSAGE_KINDS = ['message', 'announcement'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export const messageListQuery = z.object({
  kind: z.enum(MESSAGE_KINDS).default('message'),
  /** all, or only read / unread ones */
  read: z.enum(['all', 'read', 'unread']).default('all'),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(10),
});
export type MessageListQuery = z.infer<typeof messageListQuery>;

export const messageItem = z.object({
  id: z.string(),
  kind: z.enum(MESSAGE_KINDS),
  /** e.g. NOTICE, FREEZE, BATCH_CREATE_CARD; announcements are ANNOUNCEMENT */
  type: z.string(),
  title: z.string(),
  /** HTML; the portal cleans it before showing it */
  content: z.string(),
  status: z.string(),
  is_read: z.boolean(),
  created_at: z.string(),
});
export type MessageItem = z.infer<typeof messageItem>;

export const messagePage = z.object({
  items: z.array(messageItem),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type MessagePage = z.infer<typeof messagePage>;

/** One id marks that message or announcement read; `all: true` marks every one (of `kind`, or both kinds). */
export const readStatusBody = z
  .object({
    id: z.uuid({ error: '消息不存在' }).optional(),
    all: z.boolean().optional(),
    kind: z.enum(MESSAGE_KINDS).optional(),
  })
  .refine((body) => (body.id !== undefined) !== (body.all === true), { message: '请指定要标记的消息', path: ['id'] });

/** PUT /msg-center/station-msg/read-status: the unread count (both kinds) after the change. */
export const readStatusAnswer = z.object({ unread_quantity: z.number().int() });
export type ReadStatusAnswer = z.infer<typeof readStatusAnswer>;

/** GET /msg-center/station-msg/unread-quantity: unread station messages plus unread announcements. */
export const unreadQuantity = z.object({ count: z.number().int() });
export type UnreadQuantity = z.infer<typeof unreadQuantity>;

/** What the event stream sends (spec §7 /events): JSON with these fields. */
export const streamEvent = z.object({
  type: z.string(),
  unread_quantity: z.number().int().optional(),
  id: z.string().optional(),
  title: z.string().optional(),
  status: z.string().optional(),
  content: z.string().optional(),
  kind: z.enum(MESSAGE_KINDS).optional(),
  /** BALANCE_CHANGED: the wallet's balances after the movement, every currency */
  balances: z.array(accountBalanceItem).optional(),
  /** BALANCE_CHANGED: what the account's cards hold after it, every currency */
  card_amount: z.array(cardAmountItem).optional(),
  /** CARD_STATUS: which card, and its status now */
  card_id: z.string().optional(),
  card_status: z.string().optional(),
  /** CARD_TRANSACTION: the transaction written or changed (with card_id, type, status, amount, currency, merchant_name) */
  transaction_id: z.string().optional(),
  amount: z.string().optional(),
  currency: z.string().optional(),
  merchant_name: z.string().nullable().optional(),
  decline_code: z.string().nullable().optional(),
  /** THREE_DS_OTP: the fields of card-spending.ts threeDsOtp (with card_id, merchant_name, amount, currency) */
  last4: z.string().nullable().optional(),
  nickname: z.string().optional(),
  code: z.string().optional(),
  expires_at: z.string().optional(),
  /** DEPOSIT_PROGRESS: which deposit, its confirmations now (status carries PENDING or CREDITED) */
  deposit_id: z.string().optional(),
  confirmations: z.number().int().optional(),
  /** SESSION_ENDED: the session code (608) and its message, as a refused call answers them */
  error_code: z.number().int().optional(),
  message: z.string().optional(),
});
export type StreamEvent = z.infer<typeof streamEvent>;

// the stream's constants live in a file without zod, so the browser can load them on their own
export { EVENT_TYPES, HEARTBEAT_SECONDS, HEARTBEAT_TIMEOUT_SECONDS } from './events.ts';
