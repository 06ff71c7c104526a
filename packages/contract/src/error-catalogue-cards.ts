import { CardErrorCode } from './card-errors.ts';
import type { CatalogueEntry } from './error-catalogue-entry.ts';

/** Cards: opening, lifecycle, reveal, exports of card data and the issuer. */
export const cardErrors: Record<number, CatalogueEntry> = {
  [CardErrorCode.IDEMPOTENCY_KEY_MISSING]: {
    status: 400,
    message: '请求缺少有效的Idempotency-Key',
    meaning: 'A call that moves money carried no Idempotency-Key header, or one that is not 8–128 visible ASCII characters; nothing moved.',
  },
  [CardErrorCode.CARD_NOT_FOUND]: {
    status: 404,
    message: '卡片不存在',
    meaning: "No card with that id belongs to the signed-in account at this merchant (another account's card answers the same).",
  },
  [CardErrorCode.CARD_ACTION_NOT_ALLOWED]: {
    status: 409,
    message: '卡片当前状态为{status}，不能{action}',
    meaning: "The card's status does not allow the action (spec §4, cards.md); data: status, action, actions (what it allows now). Nothing changed.",
  },
  [CardErrorCode.CARD_NOT_VERIFIED]: {
    status: 403,
    message: '请先完成实名认证',
    meaning: 'The account has not given its real name and ID number (PUT /card/verification) and so cannot open cards.',
  },
  [CardErrorCode.CARD_SECONDARY_REQUIRED]: {
    status: 403,
    message: '该卡产品需先补充资料（英文姓名与使用网址）',
    meaning: 'The product needs the secondary data (Latin name, website) and the account has not given it.',
  },
  [CardErrorCode.PRODUCT_UNAVAILABLE]: {
    status: 400,
    message: '该卡产品暂不可开卡',
    meaning: 'The product does not exist at this merchant or is switched off (ops product:set --status OFF).',
  },
  [CardErrorCode.CARD_QUOTA_USED]: {
    status: 400,
    message: '该卡产品的开卡数量已达上限（{limit}张）',
    meaning: "The account holds as many of the product's cards (not counting failed or cancelled ones) as per_account_limit allows; data.limit.",
  },
  [CardErrorCode.CARD_AMOUNT_BELOW_MIN]: {
    status: 400,
    message: '首充金额不能低于{min} {currency}',
    meaning: "The first load is below the product's min_first_load; data: min, currency.",
  },
  [CardErrorCode.CARD_BALANCE_ABOVE_MAX]: {
    status: 400,
    message: '充值后卡内余额不能超过{max} {currency}',
    meaning: "The load would take the card past the product's max_balance; data: max, currency, balance.",
  },
  [CardErrorCode.REVEAL_CODE_REQUIRED]: {
    status: 403,
    message: '请先获取并输入验证码',
    meaning: 'Showing a card number needs an access code (send/code-auto, MARK_TYPE_ACCESS) checked within the last five minutes in the same session.',
  },
  [CardErrorCode.REVEAL_LIMIT]: {
    status: 429,
    message: '查看卡号过于频繁，请{seconds}秒后再试',
    variants: { export: '查看和导出完整卡号过于频繁，请{seconds}秒后再试' },
    meaning:
      'The account revealed card numbers 30 times in the last hour, each export with full numbers counting as one; data.seconds ' +
      'until the next is allowed. An export refused so says so (variant export).',
  },
  [CardErrorCode.SENSITIVE_EXPORT_DAILY_LIMIT]: {
    status: 429,
    message: '今日导出完整卡号已达{limit}次上限，请明天再试',
    meaning:
      'The account made SENSITIVE_EXPORTS_PER_DAY exports with full numbers today (the day in China time, UTC+8); the next is allowed ' +
      'from 00:00 China time. data: limit, retry_at. Nothing was exported and the access code was not used.',
  },
  [CardErrorCode.CARD_FROZEN_BY_OTHERS]: {
    status: 403,
    message: '此卡由{who}冻结，如需解冻请联系客服',
    meaning: "The card was frozen by the merchant's operator or by the issuer; only they can unfreeze it. data.frozen_by.",
  },
  [CardErrorCode.ISSUER_UNAVAILABLE]: {
    status: 503,
    message: '发卡机构暂时无法受理，请稍后重试',
    meaning: "The card issuer did not accept the request (unreachable or refused); the card's status and the money are as before.",
  },
  [CardErrorCode.ISSUER_SIGNATURE_INVALID]: {
    status: 401,
    message: '签名无效',
    meaning: "A card issuer's webhook whose Issuer-Signature is missing, malformed, older than five minutes or not the HMAC-SHA256 of t.body with ISSUER_WEBHOOK_SECRET; nothing was processed.",
  },
  [CardErrorCode.ISSUER_EVENT_INVALID]: {
    status: 400,
    message: '事件格式有误',
    meaning: "A correctly signed issuer event that is not {id, type, data} with a 1–100 character id and type; nothing was processed.",
  },
  [CardErrorCode.AUTHORIZATION_NOT_YET]: {
    status: 409,
    message: '该授权尚未到达，请稍后重发',
    meaning:
      "A settlement or reversal whose authorisation the portal has not received yet: nothing was processed and the event id is not kept, so the issuer's retry (after the authorisation) is processed in full.",
  },
  [CardErrorCode.EXPORT_FILE_DAMAGED]: {
    status: 410,
    message: '导出文件校验失败，无法下载，请重新导出',
    meaning: "The export's sealed file on the server does not open with the card-data key (changed, cut short, or another export's); nothing of it was sent.",
  },
};
