import { CardBatchErrorCode } from './card-batches.ts';
import type { CatalogueEntry } from './error-catalogue-entry.ts';

/** Batches of cards and their exports. */
export const cardBatchErrors: Record<number, CatalogueEntry> = {
  [CardBatchErrorCode.BATCH_RUNNING]: {
    status: 409,
    message: '您有一个批量开卡任务正在进行，请等待其完成后再提交',
    meaning: 'An account runs one batch at a time (spec: exist); data.batch_id names the running one.',
  },
  [CardBatchErrorCode.BATCH_OVER_PRODUCT_MAX]: {
    status: 400,
    message: '该卡片产品单批最多开{max}张',
    meaning: "The quantity is above the product's max_per_batch; nothing was held. data.max.",
  },
  [CardBatchErrorCode.EXPORT_NOT_FOUND]: {
    status: 404,
    message: '导出任务不存在',
    meaning: 'No export of this account at this merchant has that id.',
  },
  [CardBatchErrorCode.EXPORT_NOT_READY]: {
    status: 409,
    message: '导出文件尚未生成，请稍后再试',
    meaning: 'The export is still PENDING or RUNNING, or FAILED; data.status says which.',
  },
  [CardBatchErrorCode.EXPORT_EXPIRED]: {
    status: 410,
    message: '导出文件已过期删除，请重新导出',
    meaning: 'Export files are kept 24 hours, then deleted.',
  },
  [CardBatchErrorCode.EXPORT_CODE_REQUIRED]: {
    status: 403,
    message: '导出完整卡号需先获取并输入验证码',
    meaning: 'An export with full numbers, CVV and expiry needs an access code (send/code-auto, MARK_TYPE_ACCESS) checked within the last five minutes in the same session, like a reveal.',
  },
  [CardBatchErrorCode.EXPORT_OTHER_SESSION]: {
    status: 403,
    message: '含完整卡号的导出文件仅限发起导出的登录设备下载，如需下载请重新导出',
    meaning:
      "An export with full numbers, CVV and expiry is served only to the session that made it (with its access code); the account's " +
      'other sessions see it listed (downloadable false) but not its file. Exports without full numbers are served to any session of the account.',
  },
};
