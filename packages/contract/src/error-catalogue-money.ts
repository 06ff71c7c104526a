import type { CatalogueEntry } from './error-catalogue-entry.ts';
import { ErrorCode } from './errors.ts';

/** Money: funds, holds, the ledger and wallet exports. */
export const moneyErrors: Record<number, CatalogueEntry> = {
  [ErrorCode.INSUFFICIENT_FUNDS]: {
    status: 400,
    message: '钱包可用余额不足（可用 {available} {currency}）',
    meaning: 'The wallet has less available (balance minus held) than the operation takes; nothing moved. data: currency, available.',
  },
  [ErrorCode.WALLET_FROZEN]: {
    status: 403,
    message: '钱包已冻结，资金暂不能转出，请联系客服',
    meaning: 'The wallet is frozen: no money leaves it (no deduction, hold, card opening or transfer to a card) until it is unfrozen.',
  },
  [ErrorCode.HOLD_NOT_FOUND]: {
    status: 404,
    message: '预留资金记录不存在',
    meaning: 'No hold with that id belongs to this merchant.',
  },
  [ErrorCode.HOLD_SETTLED]: {
    status: 409,
    message: '该笔预留资金已处理，不能重复操作',
    meaning: 'The hold was already posted or released; a hold is settled exactly once. data.status is how it was settled.',
  },
  [ErrorCode.LEDGER_TRANSACTION_NOT_FOUND]: {
    status: 404,
    message: '交易记录不存在',
    meaning: 'No ledger transaction with that id belongs to this merchant.',
  },
  [ErrorCode.ALREADY_REVERSED]: {
    status: 409,
    message: '该笔交易已冲正，不能重复冲正',
    meaning: 'A transaction is reversed at most once, and a reversal itself is not reversed.',
  },
  [ErrorCode.AMOUNT_INVALID]: {
    status: 400,
    message: '金额须大于0且最多两位小数',
    meaning: 'A money amount was zero, negative, too large or had more than two decimals.',
  },
  [ErrorCode.CARD_BALANCE_INSUFFICIENT]: {
    status: 400,
    message: '卡内余额不足（可用 {available} {currency}）',
    meaning: 'The card has less available than the operation takes out of it; nothing moved. data: currency, available.',
  },
  [ErrorCode.EXPORT_TOO_LARGE]: {
    status: 400,
    message: '导出记录超过{limit}条，请缩小筛选范围后重试',
    meaning: 'The filtered transactions are more than one spreadsheet holds (data.limit rows); narrow the date range or filters.',
  },
  [ErrorCode.STATEMENT_MONTH_NOT_BEGUN]: {
    status: 400,
    message: '{month} 尚未开始，暂无对账单',
    meaning: 'A statement was asked for a month that has not begun yet (China time); the current month answers up to now. data.month.',
  },
  [ErrorCode.STATEMENT_TOO_LARGE]: {
    status: 400,
    message: '本月共 {total} 笔资金变动，PDF 对账单最多 {limit} 笔，请下载 Excel 版本',
    meaning: 'The month holds more movements than a PDF statement lists (data.limit); the .xlsx statement takes them. data: total, limit.',
  },
  [ErrorCode.BALANCE_LIMIT]: {
    status: 400,
    message: '金额超出账户可容纳的上限，未做任何变动',
    meaning: 'The movement would take an account past the largest balance the ledger stores; nothing moved.',
  },
};
