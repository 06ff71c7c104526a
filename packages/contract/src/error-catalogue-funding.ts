import type { CatalogueEntry } from './error-catalogue-entry.ts';
import { FundingErrorCode } from './funding-errors.ts';

/** Money in: top-up notices, receipts and their crediting. */
export const fundingErrors: Record<number, CatalogueEntry> = {
  [FundingErrorCode.DEPOSIT_NOT_FOUND]: {
    status: 404,
    message: '充值通知不存在',
    meaning: "No top-up notice with that id belongs to this account (another account's is the same as none); nothing changed.",
  },
  [FundingErrorCode.DEPOSIT_DECIDED]: {
    status: 409,
    message: '该充值通知已处理（{status}），不能重复操作',
    meaning: 'The notice was credited or rejected already: a notice is decided once; nothing changed. data.status is how it was decided.',
  },
  [FundingErrorCode.RECEIPT_TOO_LARGE]: {
    status: 400,
    message: '凭证图片不能超过5MB',
    meaning: 'The receipt image is larger than 5 MB; nothing was stored.',
  },
  [FundingErrorCode.RECEIPT_TYPE]: {
    status: 400,
    message: '凭证只能是 PNG、JPEG、WebP 或 GIF 图片',
    meaning: "The receipt's bytes are no PNG, JPEG, WebP or GIF image (told by its first bytes, not its name or stated type), or it is empty; nothing was stored.",
  },
  [FundingErrorCode.RECEIPT_NOT_FOUND]: {
    status: 404,
    message: '凭证不存在',
    meaning: "No receipt with that id belongs to this account (another account's is the same as none).",
  },
  [FundingErrorCode.TRANSFER_TIME_FUTURE]: {
    status: 400,
    message: '转账时间不能晚于当前时间',
    meaning: 'A top-up notice named a transfer time in the future; nothing changed.',
  },
  [FundingErrorCode.RECEIPT_USED]: {
    status: 400,
    message: '凭证已用于其他充值通知',
    meaning: 'The receipt named by the notice is already attached to another notice; nothing changed.',
  },
  [FundingErrorCode.STATEMENT_LINE_NOT_FOUND]: {
    status: 404,
    message: '银行流水不存在',
    meaning: 'No imported statement line of this merchant has that bank_txn_id; nothing changed.',
  },
  [FundingErrorCode.STATEMENT_LINE_CREDITED]: {
    status: 409,
    message: '该笔银行流水已入账，不能重复入账',
    meaning: 'The statement line credited a wallet already (on import, or by an operator before); a line credits once; nothing changed.',
  },
  [FundingErrorCode.STATEMENT_LINE_CURRENCY]: {
    status: 400,
    message: '币种不符：该笔银行流水为 {currency}',
    meaning: 'The currency given is not the statement line\'s; nothing changed. data.currency is the line\'s.',
  },
  [FundingErrorCode.CREDIT_ACCOUNT_NOT_FOUND]: {
    status: 404,
    message: '未找到该客户账户（手机号或充值参考号）',
    meaning: 'No account of this merchant has that phone number or reference code; nothing changed.',
  },
};
