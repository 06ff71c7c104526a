/**
 * Money in (shared/design/growing-customers.md §3): the wallet's top-up by bank transfer. The merchant's
 * receiving account per currency, the account's own reference code that a transfer's memo carries, the
 * customer's top-up notices, and how a bank statement's memo is read for a reference.
 */
import { z } from 'zod';
import { CURRENCIES } from './enums.ts';
import { AMOUNT_PATTERN, toMinorUnits } from './money.ts';
import { messages } from './rules.ts';
import { ruled } from './validation.ts';
import { moneyText } from './wallet.ts';

export const DEPOSIT_STATUSES = ['PENDING', 'CREDITED', 'REJECTED'] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];
export const DEPOSIT_STATUS_LABELS: Record<DepositStatus, string> = { PENDING: '待入账', CREDITED: '已入账', REJECTED: '已驳回' };

/** How the money came: a bank transfer now; a USDT deposit (with its confirmations) later, in the same list. */
export const DEPOSIT_KINDS = ['BANK', 'USDT'] as const;
export type DepositKind = (typeof DEPOSIT_KINDS)[number];

/** What made the row: the customer's notice, a bank statement's line that named the account's reference, or a USDT deposit the crypto gateway saw on chain. */
export const DEPOSIT_SOURCES = ['NOTICE', 'STATEMENT', 'CHAIN'] as const;
export type DepositSource = (typeof DEPOSIT_SOURCES)[number];

/**
 * A reference code: a fixed prefix and eight characters of an alphabet without 0, O, 1 and I, so that
 * it is typed into a bank's memo without doubt. Read from a memo without regard to case, anywhere in it.
 */
export const REFERENCE_PREFIX = 'TP';
export const REFERENCE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const REFERENCE_BODY_LENGTH = 8;
export const REFERENCE_PATTERN = new RegExp(`^${REFERENCE_PREFIX}[${REFERENCE_ALPHABET}]{${REFERENCE_BODY_LENGTH}}$`);

/** Every reference a memo holds, upper case, in the order they appear (overlapping ones included). */
export function referencesIn(memo: string): string[] {
  const text = memo.toUpperCase();
  const found: string[] = [];
  const length = REFERENCE_PREFIX.length + REFERENCE_BODY_LENGTH;
  for (let at = text.indexOf(REFERENCE_PREFIX); at >= 0; at = text.indexOf(REFERENCE_PREFIX, at + 1)) {
    const candidate = text.slice(at, at + length);
    if (REFERENCE_PATTERN.test(candidate) && !found.includes(candidate)) found.push(candidate);
  }
  return found;
}

/** A receipt image: at most 5 MB, one of these kinds (told by the file's first bytes, never by its name). */
export const RECEIPT_MAX_BYTES = 5 * 1024 * 1024;
export const RECEIPT_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export type ReceiptType = (typeof RECEIPT_TYPES)[number];

export const fundingLimits = { payerNameMax: 100, amountMax: '1000000000.00', noticePageSizeMax: 100 } as const;

export const fundingMessages = {
  currency: '请选择币种',
  amountRequired: '请输入充值金额',
  amount: '充值金额须大于0、最多两位小数，且不超过1000000000.00',
  payerRequired: '请输入付款人名称',
  payer: '付款人名称最多100个字符，且不能含控制字符',
  transferredAtRequired: '请选择转账时间',
  transferredAt: '转账时间格式不正确',
  receipt: '凭证编号格式不正确',
} as const;

/** An amount of a top-up: above zero, two decimals at most, within the ceiling. */
export const depositAmountRule = (value: string) => {
  const text = value.trim();
  if (text === '') return fundingMessages.amountRequired;
  if (!AMOUNT_PATTERN.test(text) || toMinorUnits(text) <= 0n || toMinorUnits(text) > toMinorUnits(fundingLimits.amountMax)) return fundingMessages.amount;
  return null;
};

/** The payer's name as the bank shows it. */
export const payerNameRule = (value: string) => {
  const name = value.trim();
  if (name === '') return fundingMessages.payerRequired;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if ([...name].length > fundingLimits.payerNameMax || /[\u0000-\u001f\u007f]/.test(name)) return fundingMessages.payer;
  return null;
};

const currencyField = z.enum(CURRENCIES, { error: fundingMessages.currency });

/** GET /wallet/deposit-instructions */
export const depositInstructionsQuery = z.object({ currency: currencyField });

export const receivingBank = z.object({
  name: z.string(),
  account_name: z.string(),
  account_number: z.string(),
  branch: z.string().nullable(),
  swift: z.string().nullable(),
});
export type ReceivingBank = z.infer<typeof receivingBank>;

export const depositInstructions = z.object({
  currency: z.enum(CURRENCIES),
  reference: z.string(),
  bank: receivingBank.nullable(),
  /** null when the merchant offers no USDT or the currency is not USD; `rate` is USD per USDT, `fee_percent` what the merchant keeps */
  usdt: z
    .object({ network: z.literal('TRC20'), address: z.string(), confirmations_required: z.number().int(), rate: z.string(), fee_percent: z.string() })
    .nullable(),
});
export type DepositInstructions = z.infer<typeof depositInstructions>;

/** POST /wallet/deposits: a top-up notice. `transferred_at` is an instant with its offset. */
export const depositNoticeBody = z.object({
  currency: currencyField,
  amount: ruled(depositAmountRule).transform((value) => value.trim()),
  payer_name: ruled(payerNameRule).transform((value) => value.trim()),
  transferred_at: z.iso.datetime({ offset: true, error: fundingMessages.transferredAt }),
  receipt_file_id: z.string().uuid({ error: fundingMessages.receipt }).nullish(),
});
export type DepositNoticeBody = z.infer<typeof depositNoticeBody>;

/**
 * How a USDT deposit became USD (usdt.ts usdtCredit), once it was decided: the rate and fee per cent it
 * was credited at, what the USDT was worth at the rate and the fee taken (value − fee = credited_amount).
 */
export const usdtConversion = z.object({ rate: z.string(), fee_percent: z.string(), value: moneyText, fee: moneyText });
export type UsdtConversion = z.infer<typeof usdtConversion>;

export const depositItem = z.object({
  id: z.string(),
  kind: z.enum(DEPOSIT_KINDS),
  source: z.enum(DEPOSIT_SOURCES),
  currency: z.enum(CURRENCIES),
  /** a bank transfer's amount in `currency`; a USDT deposit's USDT exactly as the gateway sent it (2 to 6 decimals) */
  amount: z.string().regex(/^\d+\.\d{2,6}$/),
  /** what reached the wallet, once credited */
  credited_amount: moneyText.nullable(),
  payer_name: z.string(),
  transferred_at: z.string(),
  status: z.enum(DEPOSIT_STATUSES),
  /** why it was rejected */
  reason: z.string(),
  receipt_file_id: z.string().nullable(),
  /** a USDT deposit's confirmations so far and needed; null for a bank transfer */
  confirmations: z.number().int().nullable(),
  confirmations_required: z.number().int().nullable(),
  /** a USDT deposit's conversion once credited (or found below a cent); null before and for a bank transfer */
  conversion: usdtConversion.nullable(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
});
export type DepositItem = z.infer<typeof depositItem>;

export const depositListQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(fundingLimits.noticePageSizeMax).default(10),
});
export type DepositListQuery = z.infer<typeof depositListQuery>;

export const depositPage = z.object({
  items: z.array(depositItem),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type DepositPage = z.infer<typeof depositPage>;

/** POST /wallet/deposits/receipts: the raw image as the body; the answer names it for the notice. */
export const depositReceipt = z.object({ id: z.string(), content_type: z.enum(RECEIPT_TYPES), size: z.number().int() });
export type DepositReceipt = z.infer<typeof depositReceipt>;

export const receiptParams = z.object({ id: z.string().uuid({ error: messages.required }) });

/** The columns a bank statement (CSV, UTF-8, a header row) must have; others are ignored. */
export const STATEMENT_COLUMNS = ['bank_txn_id', 'date', 'amount', 'currency', 'payer', 'memo'] as const;
