import { z } from 'zod';
import { BALANCE_STATUS_AVAILABLE, BALANCE_STATUS_FROZEN, CURRENCIES, WALLET_TRANSACTION_TYPES } from './enums.ts';

/**
 * The wallet calls (spec §7 /balance/*, product.md §3). Every amount is a decimal string with two
 * places; amounts of transactions are signed: money into the wallet is positive, out of it negative.
 */

export const BALANCE_STATUSES = [BALANCE_STATUS_AVAILABLE, BALANCE_STATUS_FROZEN] as const;

/** A two-decimal amount as the API answers it: "1234.50", "-12.00". */
export const moneyText = z.string().regex(/^-?\d+\.\d{2}$/);

/** GET /balance/account-balance: one row per currency, zeros for a currency never used. */
export const accountBalanceItem = z.object({
  currency: z.enum(CURRENCIES),
  /** spendable now */
  available: moneyText,
  /** held for operations in flight (a running batch, a card being opened) */
  anew: moneyText,
});
export type AccountBalanceItem = z.infer<typeof accountBalanceItem>;
export const accountBalanceAnswer = z.array(accountBalanceItem);

/** GET /balance/account-balance-status */
export const balanceStatusAnswer = z.object({
  /** BALANCE_STATUS_AVAILABLE, or BALANCE_STATUS_FROZEN: nothing can leave the wallet */
  status: z.enum(BALANCE_STATUSES),
  /** why the merchant froze it (empty when not frozen or no reason was given) */
  reason: z.string(),
  /** when the status last changed, ISO 8601; null if it never did */
  changed_at: z.string().nullable(),
});
export type BalanceStatusAnswer = z.infer<typeof balanceStatusAnswer>;

/** GET /balance/card-amount: the total on the account's cards, per currency. */
export const cardAmountItem = z.object({ currency: z.enum(CURRENCIES), amount: moneyText });
export const cardAmountAnswer = z.array(cardAmountItem);
export type CardAmountItem = z.infer<typeof cardAmountItem>;

/**
 * A date filter bound: a day `2026-03-01` (a whole day in China Standard Time, UTC+8) or an instant
 * with its offset `2026-03-01T08:30:00+08:00` / `…Z`.
 */
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;
export const CHINA_OFFSET = '+08:00';

function isRealDay(text: string) {
  const match = DAY.exec(text);
  if (!match) return false;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** Dates a filter may name: no record is older, and both engines store every one of them. */
export const DATE_RANGE = { fromYear: 2000, toYear: 2999 } as const;

export const dateBound = z
  .string()
  .refine(
    (text) => {
      const year = Number(text.slice(0, 4));
      return !/^\d{4}-/.test(text) || (year >= DATE_RANGE.fromYear && year <= DATE_RANGE.toYear);
    },
    { message: `日期超出范围（${DATE_RANGE.fromYear}–${DATE_RANGE.toYear}年）`, abort: true },
  )
  .refine((text) => isRealDay(text) || (INSTANT.test(text) && !Number.isNaN(Date.parse(text))), {
    message: '日期格式有误，应为 YYYY-MM-DD',
  });

/**
 * The time range a filter means: `from` inclusive, `before` exclusive. A day as `end_time` covers
 * that whole day; an instant as `end_time` includes that instant.
 */
export function transactionTimeRange(start?: string, end?: string): { from: Date | null; before: Date | null } {
  const from = start === undefined ? null : DAY.test(start) ? new Date(`${start}T00:00:00${CHINA_OFFSET}`) : new Date(start);
  let before: Date | null = null;
  if (end !== undefined) {
    before = DAY.test(end)
      ? new Date(new Date(`${end}T00:00:00${CHINA_OFFSET}`).getTime() + 24 * 60 * 60_000)
      : new Date(new Date(end).getTime() + 1);
  }
  return { from, before };
}

const filterFields = {
  type: z.enum(WALLET_TRANSACTION_TYPES).optional(),
  currency: z.enum(CURRENCIES).optional(),
  start_time: dateBound.optional(),
  end_time: dateBound.optional(),
};

const rangeInOrder = (value: { start_time?: string | undefined; end_time?: string | undefined }) => {
  const { from, before } = transactionTimeRange(value.start_time, value.end_time);
  return !from || !before || from.getTime() < before.getTime();
};
const rangeMessage = { message: '开始日期不能晚于结束日期', path: ['end_time'] };

/** The kinds of rows that stand for an operation on many cards (wallet-groups.ts names and labels them). */
export const WALLET_GROUP_KINDS = ['CARD_BATCH', 'CARD_BULK_RECHARGE'] as const;
export type WalletGroupKind = (typeof WALLET_GROUP_KINDS)[number];

/** GET /balance/transactions: newest first. With a group's kind and id: the parts of that group, every one a row. */
export const walletTransactionQuery = z
  .object({
    ...filterFields,
    group_kind: z.enum(WALLET_GROUP_KINDS).optional(),
    group_id: z.string().uuid().optional(),
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    page_size: z.coerce.number().int().min(1).max(100).default(20),
  })
  .refine(rangeInOrder, rangeMessage);
export type WalletTransactionQuery = z.infer<typeof walletTransactionQuery>;

/** GET /balance/transactions/export: the same filters, every matching row, as an .xlsx file. */
export const walletTransactionExportQuery = z.object(filterFields).refine(rangeInOrder, rangeMessage);
export type WalletTransactionExportQuery = z.infer<typeof walletTransactionExportQuery>;

export const walletTransactionItem = z.object({
  /** the row (one posting to the wallet) */
  id: z.string(),
  /** the operation it belongs to; a card's or a batch's rows name it as their reference */
  transaction_id: z.string(),
  type: z.enum(WALLET_TRANSACTION_TYPES),
  currency: z.enum(CURRENCIES),
  /** signed: into the wallet positive, out of it negative */
  amount: moneyText,
  /** the wallet's balance in this currency right after it (available plus held) */
  balance_after: moneyText,
  created_at: z.string(),
  /** what it belongs to: a card, a batch, an operator's request */
  reference: z.string(),
  memo: z.string(),
  /** the id of the transaction this row corrects (冲正), or null */
  reverses: z.string().nullable(),
  /** the first load of a card, paid when it was issued (开卡充值) */
  first_load: z.boolean(),
  /** set: the row stands for the postings of an operation on many cards (`count` cards, `parts` postings) */
  group: z
    .object({ kind: z.enum(WALLET_GROUP_KINDS), id: z.string(), count: z.number().int(), parts: z.number().int() })
    .nullable(),
});
export type WalletTransactionItem = z.infer<typeof walletTransactionItem>;

export const walletTransactionPage = z.object({
  items: z.array(walletTransactionItem),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type WalletTransactionPage = z.infer<typeof walletTransactionPage>;

/** The export's content type: the portal's HTTP module hands answers of this type back raw (spec §8). */
export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** More rows than this in one export are refused (EXPORT_TOO_LARGE): narrow the filters. */
export const EXPORT_ROW_LIMIT = 100_000;
