import { z } from 'zod';
import { CURRENCIES, cardTransactionTypeLabel, walletTransactionTypeLabel } from './enums.ts';
import { FIRST_LOAD_LABEL } from './wallet-groups.ts';

/**
 * A monthly statement (GET /statements): per currency and China-time month, the wallet's and each card's
 * opening balance, every movement, the fees and the closing balance, as .xlsx or PDF. Balances are the
 * ledger's (money held for a payment in flight still counts: it has not left the account).
 */

export const STATEMENT_FORMATS = ['pdf', 'xlsx'] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];
export const statementFormatLabel: Record<StatementFormat, string> = { pdf: 'PDF', xlsx: 'Excel' };

/** The earliest month a statement covers. */
export const STATEMENT_FIRST_MONTH = '2020-01';

/** The most movements a PDF statement lists; the spreadsheet takes up to the export limit. */
export const STATEMENT_PDF_ROW_LIMIT = 10_000;

export const statementMonth = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, '月份格式应为 YYYY-MM')
  .refine((month) => month >= STATEMENT_FIRST_MONTH, `月份不能早于 ${STATEMENT_FIRST_MONTH}`);

export const statementQuery = z.object({
  month: statementMonth,
  currency: z.enum(CURRENCIES),
  format: z.enum(STATEMENT_FORMATS).default('pdf'),
});
export type StatementQuery = z.infer<typeof statementQuery>;

const CHINA_OFFSET_MS = 8 * 60 * 60_000;

/** The month's first instant and the next month's, China time (UTC+8). */
export function statementMonthRange(month: string): { start: Date; end: Date } {
  const year = Number(month.slice(0, 4));
  const index = Number(month.slice(5, 7)) - 1;
  return {
    start: new Date(Date.UTC(year, index, 1) - CHINA_OFFSET_MS),
    end: new Date(Date.UTC(year, index + 1, 1) - CHINA_OFFSET_MS),
  };
}

/** The China-time month an instant falls in, as YYYY-MM. */
export function chinaMonthOf(at: Date): string {
  return new Date(at.getTime() + CHINA_OFFSET_MS).toISOString().slice(0, 7);
}

/** The month's days as the statement prints them: 2026-10-01 至 2026-10-31. */
export function statementPeriodText(month: string): string {
  const { end } = statementMonthRange(month);
  const last = new Date(end.getTime() + CHINA_OFFSET_MS - 86_400_000).toISOString().slice(0, 10);
  return `${month}-01 至 ${last}`;
}

/** Whether a ledger account of the statement is the wallet or a card. */
export type StatementSide = 'WALLET' | 'CARD';

/**
 * What a movement is called on the statement: the wallet's types as its list names them, and a card's
 * movements from the card's side (money from the wallet is a 转入 of the card). A reversal says so.
 */
export function statementRowLabel(row: { side: StatementSide; type: string; firstLoad: boolean; reversal: boolean }): string {
  const base = row.side === 'WALLET' ? walletLabel(row.type, row.firstLoad) : cardLabel(row.type);
  return row.reversal ? `冲正：${base}` : base;
}

function walletLabel(type: string, firstLoad: boolean) {
  if (firstLoad) return FIRST_LOAD_LABEL;
  return (walletTransactionTypeLabel as Record<string, string>)[type] ?? cardLabel(type);
}

const cardSideLabels: Record<string, string> = {
  TRANSFER_OUT_TO_CARD: cardTransactionTypeLabel.TRANSFER_IN,
  TRANSFER_IN_FROM_CARD: cardTransactionTypeLabel.TRANSFER_OUT,
  CARD_CONSUME: cardTransactionTypeLabel.CONSUME,
  CARD_REFUND: cardTransactionTypeLabel.REFUND,
  CARD_ADJUST_IN: cardTransactionTypeLabel.ADJUST_IN,
};

function cardLabel(type: string) {
  return cardSideLabels[type] ?? (walletTransactionTypeLabel as Record<string, string>)[type] ?? '其他';
}

/** What a fee is called by the operation that paid it: the opening fee, a top-up's fee, a declined payment's fee. */
export function statementFeeLabel(type: string): string {
  if (type === 'OPEN_CARD') return '开卡费';
  if (type === 'TRANSFER_OUT_TO_CARD') return '卡片充值手续费';
  if (type === 'DECLINED_FEE') return '交易被拒手续费';
  return `${walletLabel(type, false)}手续费`;
}

/** The texts of the statement, the same in the PDF, the spreadsheet and the screen that asks for it. */
export const statementText = {
  title: '账户对账单',
  button: '对账单',
  dialogTitle: '下载对账单',
  month: '账单月份',
  currency: '币种',
  format: '格式',
  download: '下载',
  hint: '按北京时间自然月统计，包含钱包与全部卡片的期初余额、每笔资金变动、手续费和期末余额。本月账单统计至下载时。',
  period: '账单期间',
  periodNote: '（北京时间）',
  account: '账户',
  generatedAt: '生成时间',
  summary: '汇总',
  item: '项目',
  opening: '期初余额',
  credits: '转入合计',
  debits: '转出合计',
  closing: '期末余额',
  wallet: '钱包',
  cards: (count: number) => `卡片（${count} 张）`,
  total: '合计',
  fees: '手续费',
  feesTotal: '手续费合计',
  noFees: '本月无手续费',
  walletMovements: '钱包流水',
  cardMovements: '卡片流水',
  cardBalances: '卡片余额',
  noMovements: '本月无资金变动',
  time: '时间（北京时间）',
  type: '类型',
  card: '卡片',
  amount: '金额',
  fee: '手续费',
  balanceAfter: '变动后余额',
  memo: '备注',
  page: (page: number, pages: number) => `第 ${page} 页 / 共 ${pages} 页`,
  balanceNote: '余额为账面余额，含交易处理中预留的资金。',
  fileName: (month: string, currency: string, format: StatementFormat) => `对账单-${month}-${currency}.${format}`,
  notBegunHint: '只能下载已开始月份的对账单',
} as const;

/** How a card is named on the statement: 尾号 1234 and its nickname. */
export const statementCardName = (card: { last4: string | null; nickname: string }) =>
  `尾号 ${card.last4 ?? '----'}${card.nickname ? ` ${card.nickname}` : ''}`;
