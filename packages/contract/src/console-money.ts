import { z } from 'zod';
import { CURRENCIES } from './enums.ts';
import { depositItem, REFERENCE_PATTERN } from './funding.ts';
import { AMOUNT_PATTERN, toMinorUnits } from './money.ts';
import { moneyText } from './wallet.ts';

/**
 * Money in the merchant's console (shared/design/growing-customers.md §5): the customers' deposit notices
 * decided by an operator, the bank statement imported, and money requests (a recharge, a deduction, an
 * adjustment, an unmatched statement line credited by hand) under four eyes above the merchant's threshold.
 */

/** What a money request does: RECHARGE 充值 (ADMIN_RECHARGE_IN), DEDUCT 系统转出 (ADMIN_RECHARGE_OUT), ADJUST 调整转出 (ADJUST_OUT), LINE_CREDIT a statement line credited by hand. */
export const MONEY_REQUEST_KINDS = ['RECHARGE', 'DEDUCT', 'ADJUST', 'LINE_CREDIT'] as const;
export type MoneyRequestKind = (typeof MONEY_REQUEST_KINDS)[number];
/** The kinds an operator proposes by POST /money-requests (a line's credit is proposed from the line). */
export const PROPOSED_KINDS = ['RECHARGE', 'DEDUCT', 'ADJUST'] as const;
export const moneyRequestKindLabel: Record<MoneyRequestKind, string> = {
  RECHARGE: '充值',
  DEDUCT: '扣款',
  ADJUST: '调整转出',
  LINE_CREDIT: '对账单入账',
};

/** PENDING_APPROVAL waits for a second operator for 24 hours, then is EXPIRED. */
export const MONEY_REQUEST_STATUSES = ['PENDING_APPROVAL', 'APPLIED', 'REJECTED', 'EXPIRED'] as const;
export type MoneyRequestStatus = (typeof MONEY_REQUEST_STATUSES)[number];
export const moneyRequestStatusLabel: Record<MoneyRequestStatus, string> = {
  PENDING_APPROVAL: '待审批',
  APPLIED: '已执行',
  REJECTED: '已驳回',
  EXPIRED: '已过期',
};

export const moneyPolicy = {
  /** a pending request is approved within this long of its proposal, or not at all */
  approvalWindowMs: 24 * 60 * 60_000,
  /** the four-eyes threshold of a merchant that set none, per currency, in minor units (1,000.00) */
  defaultThreshold: 100_000n,
  reasonMax: 200,
  statementMaxBytes: 5 * 1024 * 1024,
} as const;

const totp = z
  .string({ error: '请输入身份验证器中的 6 位验证码' })
  .trim()
  .regex(/^(\d{6}|[A-HJ-NP-Z2-9]{4}-?[A-HJ-NP-Z2-9]{4})$/i, '请输入身份验证器中的 6 位验证码');
const reason = z
  .string({ error: '请填写原因' })
  .trim()
  .min(1, '请填写原因')
  .max(moneyPolicy.reasonMax, `原因最多${moneyPolicy.reasonMax}个字符`);
const amount = z
  .string({ error: '请输入金额' })
  .trim()
  .refine((value) => AMOUNT_PATTERN.test(value) && toMinorUnits(value) > 0n, '请输入大于 0 的金额，最多两位小数')
  .refine((value) => !AMOUNT_PATTERN.test(value) || toMinorUnits(value) <= 100_000_000_000n, '金额不能超过 1,000,000,000.00');
const currency = z.enum(CURRENCIES, { error: '请选择币种' });

export const moneyRequestBody = z.object({
  account_id: z.string({ error: '请选择客户' }).uuid('请选择客户'),
  kind: z.enum(PROPOSED_KINDS, { error: '请选择操作类型' }),
  amount,
  currency,
  reason,
  totp,
});
export type MoneyRequestBody = z.infer<typeof moneyRequestBody>;

export const moneyRequestAnswer = z.object({ id: z.string(), status: z.enum(MONEY_REQUEST_STATUSES) });
export type MoneyRequestAnswer = z.infer<typeof moneyRequestAnswer>;

export const idParams = z.object({ id: z.string().uuid('未找到该记录') });
export const approveBody = z.object({ totp });
export const rejectRequestBody = z.object({ reason });

const operatorRef = z.object({ id: z.string(), email: z.string() }).nullable();
export const moneyRequestItem = z.object({
  id: z.string(),
  kind: z.enum(MONEY_REQUEST_KINDS),
  status: z.enum(MONEY_REQUEST_STATUSES),
  account_id: z.string(),
  /** the customer's top-up reference (TP…), when one was made */
  account_reference: z.string().nullable(),
  currency: z.enum(CURRENCIES),
  amount: moneyText,
  reason: z.string(),
  /** the statement line a LINE_CREDIT credits */
  bank_txn_id: z.string().nullable(),
  proposed_by: operatorRef,
  approved_by: operatorRef,
  /** who rejected it and why */
  rejected_by: operatorRef,
  rejection_reason: z.string().nullable(),
  /** the ledger transaction that moved the money, once applied */
  transaction_id: z.string().nullable(),
  needs_approval: z.boolean(),
  created_at: z.string(),
  expires_at: z.string(),
  decided_at: z.string().nullable(),
});
export type MoneyRequestItem = z.infer<typeof moneyRequestItem>;

export const moneyRequestQuery = z.object({
  status: z.enum(MONEY_REQUEST_STATUSES, { error: '请选择正确的状态' }).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});
export const moneyRequestPage = z.object({
  items: z.array(moneyRequestItem),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  /** above this amount (in each currency) a request waits for a second operator */
  threshold: moneyText,
});
export type MoneyRequestPage = z.infer<typeof moneyRequestPage>;

/** A customer's deposit as the console lists it: the notice and whose it is. */
export const consoleDepositItem = depositItem.extend({ account_id: z.string(), account_reference: z.string().nullable() });
export type ConsoleDepositItem = z.infer<typeof consoleDepositItem>;
export const consoleDepositQuery = z.object({
  status: z.enum(['PENDING', 'CREDITED', 'REJECTED'], { error: '请选择正确的状态' }).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});
export const consoleDepositPage = z.object({ items: z.array(consoleDepositItem), total: z.number().int(), page: z.number().int(), page_size: z.number().int() });

export const confirmDepositBody = z.object({
  totp,
  /** what the bank says came in, when it differs from the notice's amount */
  amount: amount.optional(),
});
export const rejectDepositBody = z.object({ reason });

export const statementImportBody = z.object({
  currency,
  /** the statement's text: CSV, UTF-8, a header row `bank_txn_id,date,amount,currency,payer,memo` */
  csv: z
    .string({ error: '请选择对账单文件' })
    .min(1, '请选择对账单文件')
    .max(moneyPolicy.statementMaxBytes, '对账单文件不能超过 5 MB'),
  totp,
});
const statementLineOut = z.object({ line: z.number().int(), bank_txn_id: z.string(), date: z.string(), amount: moneyText, payer: z.string(), memo: z.string() });
export const statementImportAnswer = z.object({
  credited: z.array(statementLineOut.extend({ account_id: z.string(), reference: z.string() })),
  /** 已导入: a line whose bank id was imported before credits nothing again */
  already: z.array(statementLineOut),
  unmatched: z.array(statementLineOut.extend({ why: z.string() })),
  /** lines that could not be read, with why (the bank's id when it had one) */
  bad: z.array(z.object({ line: z.number().int(), bank_txn_id: z.string().nullable(), problem: z.string() })),
});
export type StatementImportAnswer = z.infer<typeof statementImportAnswer>;

export const unmatchedLineItem = z.object({
  bank_txn_id: z.string(),
  date: z.string(),
  currency: z.enum(CURRENCIES),
  amount: moneyText,
  payer: z.string(),
  memo: z.string(),
  imported_at: z.string(),
  /** a credit by hand proposed and waiting for a second operator */
  pending_request_id: z.string().nullable(),
});
export const unmatchedLineList = z.object({ items: z.array(unmatchedLineItem) });
export type UnmatchedLineItem = z.infer<typeof unmatchedLineItem>;

export const lineParams = z.object({ bank_txn_id: z.string().min(1).max(100) });
export const creditLineBody = z.object({
  reference: z
    .string({ error: '请输入客户的充值参考号' })
    .trim()
    .toUpperCase()
    .regex(REFERENCE_PATTERN, '请输入正确的充值参考号（TP 开头，共 10 位）'),
  totp,
});
