import { z } from 'zod';
import { chinaMonthStart } from './card-spending.ts';
import { cardTagText } from './card-list.ts';
import { cardLimits, cardTransactionItem } from './cards.ts';
import { CARD_TRANSACTION_STATUSES, CARD_TRANSACTION_TYPES, CURRENCIES } from './enums.ts';
import { MCC_PATTERN } from './merchant-categories.ts';
import { dateBound, moneyText, transactionTimeRange } from './wallet.ts';

/**
 * Spending across every card of the account (growing-customers.md §2 "Spending across cards"): the
 * transactions of all cards with one set of filters, and the summary of what was spent, grouped. A
 * member who holds only their own cards sees only those.
 *
 * What counts: spend is the approved and settled authorisations (CONSUME that is PENDING or CLOSED);
 * `count` is every authorisation asked (CONSUME of any status); `declined` those refused with a
 * decline code; the decline rate is declined ÷ count. Refunds, top-ups and withdrawals are rows of the
 * list but not spend.
 */

/** The ways the summary groups what was spent. */
export const SPENDING_GROUP_BYS = ['day', 'card', 'tag', 'holder', 'merchant', 'category'] as const;
export type SpendingGroupBy = (typeof SPENDING_GROUP_BYS)[number];

export const spendingGroupByLabel: Record<SpendingGroupBy, string> = {
  day: '按日',
  card: '按卡片',
  tag: '按标签',
  holder: '按成员',
  merchant: '按商户',
  category: '按商户类别',
};

/** The labels of groups that have no name of their own. */
export const spendingGroupLabels = { noTag: '未加标签', noMerchant: '未知商户', noCategory: '未知类别' } as const;

/** How long a merchant's name the filter takes (a part of it matches). */
export const SPENDING_MERCHANT_FILTER_MAX = 50;

const rangeMessage = { message: '开始日期不能晚于结束日期', path: ['to'] };

/** The filters the list, the summary and the export share. */
const acrossFilterFields = {
  currency: z.enum(CURRENCIES).optional(),
  card_id: z.string().uuid('请选择正确的卡片').optional(),
  tag: cardTagText.optional(),
  holder_member_id: z.string().uuid('请选择正确的成员').optional(),
  /** a part of the merchant's name, any case */
  merchant: z.string().trim().min(1).max(SPENDING_MERCHANT_FILTER_MAX).optional(),
  /** a merchant category code (MCC) */
  category: z.string().regex(MCC_PATTERN, '请选择正确的商户类别').optional(),
  /** the first and last day, YYYY-MM-DD in China time (UTC+8), both included */
  from: dateBound.optional(),
  to: dateBound.optional(),
};

const rangeInOrder = (value: { from?: string | undefined; to?: string | undefined }) => {
  const { from, before } = transactionTimeRange(value.from, value.to);
  return !from || !before || from.getTime() < before.getTime();
};

/** The per-card filters (type, status, date_from, date_to) and the account's own. */
const listFilterFields = {
  ...acrossFilterFields,
  type: z.enum(CARD_TRANSACTION_TYPES).optional(),
  status: z.enum(CARD_TRANSACTION_STATUSES).optional(),
  date_from: dateBound.optional(),
  date_to: dateBound.optional(),
};

/** GET /card/transactions */
export const acrossTransactionQuery = z
  .object({
    ...listFilterFields,
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    page_size: z.coerce.number().int().min(1).max(cardLimits.pageSizeMax).default(20),
  })
  .refine(rangeInOrder, rangeMessage);
export type AcrossTransactionQuery = z.infer<typeof acrossTransactionQuery>;

/** GET /card/transactions/export: the same filters, every matching row. */
export const acrossTransactionExportQuery = z.object(listFilterFields).refine(rangeInOrder, rangeMessage);
export type AcrossTransactionExportQuery = z.infer<typeof acrossTransactionExportQuery>;

/** A row of the list: a card's transaction, and which card it is on. */
export const acrossTransactionItem = cardTransactionItem.extend({
  card_last4: z.string().nullable(),
  card_nickname: z.string(),
});
export type AcrossTransactionItem = z.infer<typeof acrossTransactionItem>;

export const acrossTransactionPage = z.object({
  items: z.array(acrossTransactionItem),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type AcrossTransactionPage = z.infer<typeof acrossTransactionPage>;

/** The currency a summary reads when none is asked for. */
export const SPENDING_DEFAULT_CURRENCY = 'USD';

/** GET /card/spending-summary: from/to default to the current China-time month. */
export const spendingSummaryQuery = z
  .object({
    ...acrossFilterFields,
    currency: z.enum(CURRENCIES).default(SPENDING_DEFAULT_CURRENCY),
    group_by: z.enum(SPENDING_GROUP_BYS).default('day'),
  })
  .refine(rangeInOrder, rangeMessage);
export type SpendingSummaryQuery = z.infer<typeof spendingSummaryQuery>;

export const spendingGroup = z.object({
  /** the day (YYYY-MM-DD, China time), card id, tag, member id, merchant name or MCC; '' for the unnamed group */
  key: z.string(),
  label: z.string(),
  amount: moneyText,
  count: z.number().int(),
  declined: z.number().int(),
});
export type SpendingGroup = z.infer<typeof spendingGroup>;

export const spendingSummary = z.object({
  /** the range read, as days (China time), both included */
  from: z.string(),
  to: z.string(),
  currency: z.enum(CURRENCIES),
  group_by: z.enum(SPENDING_GROUP_BYS),
  total: z.object({
    amount: moneyText,
    count: z.number().int(),
    declined: z.number().int(),
    /** declined ÷ count, 0–1 with four places; 0 when nothing was asked */
    decline_rate: z.number(),
  }),
  /** days in order; every other grouping by amount, largest first */
  groups: z.array(spendingGroup),
});
export type SpendingSummary = z.infer<typeof spendingSummary>;

/** declined ÷ count, four places. */
export const declineRateOf = (declined: number, count: number) => (count === 0 ? 0 : Math.round((declined / count) * 10_000) / 10_000);

const DAY_MS = 24 * 60 * 60_000;
const OFFSET_MS = 8 * 60 * 60_000;
const dayText = (instant: Date) => new Date(instant.getTime() + OFFSET_MS).toISOString().slice(0, 10);

/** The current China-time month as days: its 1st and its last day. */
export function chinaMonthDays(now: Date): { from: string; to: string } {
  const start = chinaMonthStart(now);
  const shifted = new Date(start.getTime() + OFFSET_MS);
  const nextStart = Date.UTC(shifted.getUTCFullYear(), shifted.getUTCMonth() + 1, 1) - OFFSET_MS;
  return { from: dayText(start), to: dayText(new Date(nextStart - DAY_MS)) };
}

/** The days of a summary's range, given or the current China-time month. */
export function summaryDays(query: { from?: string | undefined; to?: string | undefined }, now: Date): { from: string; to: string } {
  const day = (text: string) => (/^\d{4}-\d\d-\d\d$/.test(text) ? text : dayText(new Date(text)));
  const to = query.to ? day(query.to) : chinaMonthDays(now).to;
  // a range given only its end starts on that month's 1st
  const from = query.from ? day(query.from) : query.to ? `${to.slice(0, 8)}01` : chinaMonthDays(now).from;
  return { from, to };
}

/** The 消费分析 screen's address (its filters live there). */
export const SPENDING_ANALYSIS_PATH = '/card/analysis';
