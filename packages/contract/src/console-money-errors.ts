import type { CatalogueEntry } from './error-catalogue-entry.ts';

/** The console's money codes (6150–6199): deposits decided in the console, and money requests under four eyes. */
export const ConsoleMoneyErrorCode = {
  REQUEST_NOT_FOUND: 6150,
  OWN_REQUEST: 6151,
  REQUEST_DECIDED: 6152,
  REQUEST_EXPIRED: 6153,
  REQUEST_KEY_REUSED: 6154,
  ACCOUNT_NOT_FOUND: 6155,
  BALANCE_SHORT: 6156,
  STATEMENT_COLUMNS: 6157,
  REFERENCE_NOT_FOUND: 6158,
} as const;

export const consoleMoneyErrors: Record<number, CatalogueEntry> = {
  [ConsoleMoneyErrorCode.REQUEST_NOT_FOUND]: { status: 404, message: '资金申请不存在', meaning: 'No money request of this merchant has that id.' },
  [ConsoleMoneyErrorCode.OWN_REQUEST]: {
    status: 403,
    message: '不能审批自己发起的申请，请由另一位操作员审批',
    meaning: 'Four eyes: the operator who proposed a money request cannot approve it.',
  },
  [ConsoleMoneyErrorCode.REQUEST_DECIDED]: {
    status: 409,
    message: '该申请{status}，不能再次处理',
    meaning: 'The request was applied or rejected already; data.status names how it stands.',
  },
  [ConsoleMoneyErrorCode.REQUEST_EXPIRED]: {
    status: 409,
    message: '该申请超过 24 小时未获审批，已过期，请重新发起',
    meaning: 'A pending request is approved within 24 hours of its proposal or not at all.',
  },
  [ConsoleMoneyErrorCode.REQUEST_KEY_REUSED]: {
    status: 409,
    message: '该 Idempotency-Key 已用于另一笔资金申请，请换一个',
    meaning: 'The operator sent this Idempotency-Key before with a different request; the same key and body answer the first request.',
  },
  [ConsoleMoneyErrorCode.ACCOUNT_NOT_FOUND]: { status: 404, message: '客户账户不存在', meaning: 'No customer account of this merchant has that id.' },
  [ConsoleMoneyErrorCode.BALANCE_SHORT]: {
    status: 409,
    message: '客户钱包可用余额不足：可用 {available} {currency}，不能扣减 {amount} {currency}',
    meaning: 'A deduction or an adjustment beyond what the wallet has available (money held for operations in flight is not available); nothing moved.',
  },
  [ConsoleMoneyErrorCode.STATEMENT_COLUMNS]: {
    status: 400,
    message: '对账单缺少列：{columns}（需要 bank_txn_id,date,amount,currency,payer,memo）',
    meaning: 'The statement CSV lacks one of the columns it must have; nothing was imported.',
  },
  [ConsoleMoneyErrorCode.REFERENCE_NOT_FOUND]: {
    status: 404,
    message: '没有客户使用该充值参考号',
    meaning: 'No customer of this merchant has that reference code (TP…).',
  },
};
