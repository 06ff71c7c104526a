import { z } from 'zod';
import { cardAmountRule, cardLimits, cardMessages } from './cards.ts';
import { cardListFilter } from './card-list.ts';
import { type CARD_STATUSES, SEND_TYPES } from './enums.ts';
import { messages } from './rules.ts';
import { ruled, trxPasswordField } from './validation.ts';

/**
 * Batch card opening and bulk export (issue 14): the bodies, answers, statuses, limits, messages and
 * refusal codes both halves use. The whole cost of a batch is `openingCost(product, amount).total` ×
 * quantity (cards.ts), held at once when the batch is accepted.
 */

// ── batch opening ──

export const batchLimits = {
  /** one card is opened with POST /card */
  quantityMin: 2,
  quantityMax: 500,
  /** the prefix leaves room for "-001" … "-500" within a nickname's 20 characters */
  prefixMax: cardLimits.nicknameMax - 4,
  /** the status is polled this often while a batch runs (spec §9) */
  pollSeconds: 3,
} as const;

export const batchMessages = {
  quantity: `开卡数量须为${batchLimits.quantityMin}-${batchLimits.quantityMax}张`,
  prefix: `卡片昵称前缀须为1-${batchLimits.prefixMax}个字符`,
} as const;

/** RUNNING while cards are being opened; SUCCESS when every card was issued; FAIL when it ended with at least one failure. */
export const BATCH_STATUSES = ['RUNNING', 'SUCCESS', 'FAIL'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/** The nickname of the n-th card (1-based) of a batch: PREFIX-001 … PREFIX-500. */
export const batchNickname = (prefix: string, n: number) => `${prefix.trim()}-${String(n).padStart(3, '0')}`;

/** 卡片昵称前缀: 1–16 characters, trimmed, no control characters. */
export const nicknamePrefixRule = (value: string) => {
  const prefix = value.trim();
  if (prefix === '') return messages.required;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if ([...prefix].length > batchLimits.prefixMax || /[\u0000-\u001f\u007f]/.test(prefix)) return batchMessages.prefix;
  return null;
};

export const batchCreateCardBody = z.object({
  product_id: z.string().min(1).max(100),
  quantity: z
    .number({ error: batchMessages.quantity })
    .int(batchMessages.quantity)
    .min(batchLimits.quantityMin, batchMessages.quantity)
    .max(batchLimits.quantityMax, batchMessages.quantity),
  /** each card's first load */
  amount: ruled(cardAmountRule),
  nickname_prefix: ruled(nicknamePrefixRule),
  trx_password: trxPasswordField,
});
export type BatchCreateCardBody = z.infer<typeof batchCreateCardBody>;

export const batchCreateCardAnswer = z.object({ batch_id: z.string() });
export type BatchCreateCardAnswer = z.infer<typeof batchCreateCardAnswer>;

/**
 * GET /card/batch-create-card-status: the account's running batch (exist true), else its latest one
 * (exist false, its final figures), else no batch at all (exist false, zeros, batch_id null).
 */
export const batchStatusAnswer = z.object({
  exist: z.boolean(),
  success_count: z.number().int(),
  fail_count: z.number().int(),
  total_count: z.number().int(),
  batch_id: z.string().nullable(),
  status: z.enum(BATCH_STATUSES).nullable(),
  product_id: z.string().nullable(),
  nickname_prefix: z.string().nullable(),
  /** the station message that lists the failures (set once a batch with failures ended) */
  message_id: z.string().nullable(),
  created_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type BatchStatusAnswer = z.infer<typeof batchStatusAnswer>;

/** The payload of a BATCH_PROGRESS event on the account's stream (events.ts): the status call's figures. */
export const batchProgressEvent = batchStatusAnswer.pick({
  batch_id: true,
  status: true,
  success_count: true,
  fail_count: true,
  total_count: true,
  message_id: true,
});
export type BatchProgressEvent = z.infer<typeof batchProgressEvent>;

/** Percent done of a batch, as the widget shows it: (success + fail) / total, floored. */
export const batchPercent = (status: Pick<BatchStatusAnswer, 'success_count' | 'fail_count' | 'total_count'>) =>
  status.total_count === 0 ? 0 : Math.floor(((status.success_count + status.fail_count) * 100) / status.total_count);

/** The progress bar's two parts, in percent of the whole batch: the cards issued and the cards that failed. */
export const batchShares = (status: Pick<BatchStatusAnswer, 'success_count' | 'fail_count' | 'total_count'>) =>
  status.total_count === 0
    ? { success: 0, fail: 0 }
    : { success: (status.success_count * 100) / status.total_count, fail: (status.fail_count * 100) / status.total_count };

// ── bulk export ──

export const EXPORT_STATUSES = ['PENDING', 'RUNNING', 'DONE', 'FAILED', 'EXPIRED'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** Hours an export's file is kept before it is deleted. */
export const EXPORT_KEEP_HOURS = 24;
/** Most ids one export may name. */
export const EXPORT_IDS_MAX = 1000;
/** Exports of the account listed by GET /card/batch-exports. */
export const EXPORT_LIST_SIZE = 20;

/** The columns an export may hold, in file order, with their 中文 headers; `sensitive` ones are masked unless asked for. */
export const EXPORT_COLUMNS = {
  nickname: { header: '卡片昵称', sensitive: false },
  product_name: { header: '卡片产品', sensitive: false },
  brand: { header: '卡组织', sensitive: false },
  card_number: { header: '卡号', sensitive: true },
  cvv: { header: 'CVV', sensitive: true },
  expiry: { header: '有效期', sensitive: true },
  currency: { header: '币种', sensitive: false },
  balance: { header: '可用余额', sensitive: false },
  status: { header: '状态', sensitive: false },
  batch_id: { header: '批次号', sensitive: false },
  created_at: { header: '开卡时间', sensitive: false },
  id: { header: '卡片ID', sensitive: false },
} as const;
export type ExportColumn = keyof typeof EXPORT_COLUMNS;
export const EXPORT_COLUMN_NAMES = Object.keys(EXPORT_COLUMNS) as ExportColumn[];
/** What an export holds when it names no columns. */
export const DEFAULT_EXPORT_COLUMNS: ExportColumn[] = ['nickname', 'product_name', 'card_number', 'currency', 'balance', 'status', 'created_at'];

/** A card's status as the file writes it. */
export const CARD_STATUS_TEXT: Record<(typeof CARD_STATUSES)[number], string> = {
  CARD_STATUS_INIT: '申请中',
  NORMAL: '使用中',
  FAIL: '开卡失败',
  FREEZE: '已冻结',
  DELETE: '已注销',
  FREEZING: '冻结中',
  DELETING: '注销中',
  UNFREEZING: '解冻中',
};

export const exportMessages = {
  columns: '请至少选择一列',
  ids: `一次最多导出${EXPORT_IDS_MAX}张勾选的卡片`,
} as const;

export const batchExportBody = z.object({
  /** the card list's filters (GET /card's: statuses as a comma list, product, keyword, tag, holder); ignored when ids are given */
  filters: cardListFilter.default({}),
  /** the cards ticked on /card; the filters choose when absent */
  ids: z.array(z.string().max(100)).min(1).max(EXPORT_IDS_MAX, exportMessages.ids).optional(),
  columns: z
    .array(z.enum(EXPORT_COLUMN_NAMES as [ExportColumn, ...ExportColumn[]]))
    .min(1, exportMessages.columns)
    .optional(),
  /** full numbers, CVV and expiry: only with an access code (captcha), or within five minutes of one */
  include_sensitive: z.boolean().optional(),
  captcha: z.string().regex(/^\d{6}$/, cardMessages.captcha).optional(),
  send_type: z.enum(SEND_TYPES).optional(),
  /** needed, once the account has a trade password, for an export with full numbers */
  trx_password: trxPasswordField,
});
export type BatchExportBody = z.infer<typeof batchExportBody>;
/** The body as a client writes it (the filter's statuses a comma list). */
export type BatchExportRequest = z.input<typeof batchExportBody>;

/** Whether an export writes full numbers, CVV or expiry: asked for, and a column that holds them chosen. */
export function exportsSensitive(body: { include_sensitive?: boolean | undefined; columns?: readonly ExportColumn[] | undefined }) {
  const columns = body.columns ?? DEFAULT_EXPORT_COLUMNS;
  return Boolean(body.include_sensitive) && columns.some((name) => EXPORT_COLUMNS[name].sensitive);
}

export const batchExportAnswer = z.object({ export_id: z.string() });

export const batchExportStatusQuery = z.object({ export_id: z.string().max(100).optional() });

export const batchExportStatus = z.object({
  export_id: z.string(),
  status: z.enum(EXPORT_STATUSES),
  /** rows written so far */
  done: z.number().int(),
  /** rows the file will hold */
  total: z.number().int(),
  file_name: z.string(),
  /** when the file is deleted (null until it is written) */
  expires_at: z.string().nullable(),
  /** bytes (null until written) */
  size: z.number().int().nullable(),
  include_sensitive: z.boolean(),
  /**
   * Whether the asking session may take the file (while it is DONE and kept): one with full numbers only
   * the session that made it; another session of the account sees it listed, not its file.
   */
  downloadable: z.boolean(),
  columns: z.array(z.enum(EXPORT_COLUMN_NAMES as [ExportColumn, ...ExportColumn[]])),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  /** why it failed, 中文 */
  error: z.string().nullable(),
});
export type BatchExportStatus = z.infer<typeof batchExportStatus>;

/** Without export_id and with no export yet: null. */
export const batchExportStatusAnswer = batchExportStatus.nullable();
export const batchExportList = z.object({ items: z.array(batchExportStatus) });
export type BatchExportList = z.infer<typeof batchExportList>;

// ── refusals (the error catalogue gives each its HTTP status and 中文 message) ──

export const CardBatchErrorCode = {
  BATCH_RUNNING: 4301,
  BATCH_OVER_PRODUCT_MAX: 4302,
  EXPORT_NOT_FOUND: 4311,
  EXPORT_NOT_READY: 4312,
  EXPORT_EXPIRED: 4313,
  EXPORT_CODE_REQUIRED: 4314,
  EXPORT_OTHER_SESSION: 4315,
  BULK_TOO_MANY_CARDS: 4321,
  BULK_NO_CARDS: 4322,
  BULK_CARDS_REFUSED: 4323,
  BULK_NOT_FOUND: 4324,
  BULK_TARGET_REACHED: 4325,
  BULK_NOTHING_TO_WITHDRAW: 4326,
  BULK_TAGS_FULL: 4327,
  BULK_CARD_ENDED: 4328,
} as const;
