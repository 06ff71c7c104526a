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
  [CardBatchErrorCode.BULK_TOO_MANY_CARDS]: {
    status: 400,
    message: '所选卡片共{count}张，单次批量操作最多{max}张，请缩小筛选范围',
    meaning: 'A bulk action names more than 1,000 cards (its ids, or the cards its filter matches); nothing started. data.count, data.max.',
  },
  [CardBatchErrorCode.BULK_NO_CARDS]: {
    status: 400,
    message: '没有可操作的卡片',
    meaning: 'The ids or the filter of a bulk action match no card of the caller.',
  },
  [CardBatchErrorCode.BULK_CARDS_REFUSED]: {
    status: 403,
    message: '其中{count}张卡片{reason}，本次批量操作未执行',
    meaning:
      'Some of the cards named are ones the caller may not act on (another member holds them, or they are not the account\'s); the whole call is refused before anything moves. data.count, data.reason, data.card_ids.',
  },
  [CardBatchErrorCode.BULK_NOT_FOUND]: {
    status: 404,
    message: '批量操作不存在',
    meaning: 'No bulk action of this account (of this member, for a MEMBER) has that id.',
  },
  [CardBatchErrorCode.BULK_TARGET_REACHED]: {
    status: 409,
    message: '卡内余额已达到目标余额，无需充值',
    meaning: "A card's reason in a RECHARGE up to a target balance: it holds the target already.",
  },
  [CardBatchErrorCode.BULK_NOTHING_TO_WITHDRAW]: {
    status: 409,
    message: '卡内没有可提现的余额',
    meaning: "A card's reason in a WITHDRAW of everything: nothing is available on it.",
  },
  [CardBatchErrorCode.BULK_TAGS_FULL]: {
    status: 409,
    message: '每张卡片最多{max}个标签',
    meaning: "A card's reason in ADD_TAGS: the tags would be more than a card may carry. data.max.",
  },
  [CardBatchErrorCode.BULK_CARD_ENDED]: {
    status: 409,
    message: '卡片已注销或开卡失败，无法修改其设置',
    meaning: "A card's reason in SET_CONTROLS, ADD_TAGS, REMOVE_TAGS or SET_HOLDER: the card is cancelled (or being cancelled) or never opened.",
  },
};
