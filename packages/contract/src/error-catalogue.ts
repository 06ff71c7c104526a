import { CardBatchErrorCode } from './card-batches.ts';
import { CardErrorCode } from './card-errors.ts';
import { ErrorCode } from './errors.ts';
import { messages } from './rules.ts';
import { SecurityErrorCode } from './security-errors.ts';

/**
 * The error catalogue: each code's HTTP status, its 中文 message and what it means. Messages may hold
 * `{name}` placeholders filled from the error's params (formatMessage in errors.ts). The server answers
 * from it; the portal shows the message the server sent, so this file is not part of its code.
 */
export interface CatalogueEntry {
  status: number;
  message: string;
  /** other wordings of the same refusal under the same code, by name, for when more can be said */
  variants?: Record<string, string>;
  meaning: string;
}

export const errorCatalogue: Record<number, CatalogueEntry> = {
  [ErrorCode.SESSION_MISSING]: {
    status: 401,
    message: '请先登录',
    meaning: 'The call needs a session and carried no bearer token.',
  },
  [ErrorCode.SESSION_UNKNOWN]: {
    status: 401,
    message: '登录状态无效，请重新登录',
    meaning: 'The bearer token is not a session of this merchant (never issued, mistyped, or issued by another merchant).',
  },
  [ErrorCode.SESSION_EXPIRED]: {
    status: 401,
    message: '登录已过期，请重新登录',
    meaning: 'The session was idle longer than the idle expiry (7 days).',
  },
  [ErrorCode.SESSION_REVOKED]: {
    status: 401,
    message: '登录已失效，请重新登录',
    meaning:
      'The session was ended: logged out, replaced after a password reset or change, ended from the security centre (one session, or ' +
      "all but the one asking), or revoked by the operator. A stream of the session ends with a last event SESSION_ENDED carrying this code.",
  },
  [ErrorCode.ACCOUNT_DISABLED]: {
    status: 403,
    message: '账户已被停用，请联系客服',
    meaning: 'The account behind the session was disabled by the merchant.',
  },
  [ErrorCode.VALIDATION]: {
    status: 400,
    message: '请求参数有误',
    meaning: 'The body, query or path failed validation; message is the first field rule that failed, data.fields lists all.',
  },
  [ErrorCode.NOT_FOUND]: {
    status: 404,
    message: '请求的内容不存在',
    meaning: 'No such route or no such record visible to the caller.',
  },
  [ErrorCode.MERCHANT_UNKNOWN]: {
    status: 404,
    message: '该站点尚未开通，请确认访问地址',
    meaning: 'The request host is not a host of any merchant.',
  },
  [ErrorCode.RATE_LIMITED]: {
    status: 429,
    message: '操作过于频繁，请{seconds}秒后再试',
    meaning: 'A rate limit was reached; data.retry_after is the number of seconds to wait.',
  },
  [ErrorCode.INTERNAL]: {
    status: 500,
    message: '服务繁忙，请稍后重试',
    meaning: 'An unexpected server failure; nothing was changed.',
  },
  [ErrorCode.IDEMPOTENCY_CONFLICT]: {
    status: 409,
    message: '请求编号已被另一笔不同的请求使用',
    meaning: 'An idempotency key was reused with a different body.',
  },
  [ErrorCode.PAYLOAD_TOO_LARGE]: {
    status: 413,
    message: '请求内容过大',
    meaning: 'The request body exceeds the size limit.',
  },
  [ErrorCode.METHOD_NOT_ALLOWED]: {
    status: 405,
    message: '不支持该请求方式',
    meaning: 'The path exists, but not with this method; the Allow header lists the methods it answers.',
  },
  [ErrorCode.AGREEMENT_NOT_FOUND]: {
    status: 404,
    message: '用户协议不存在',
    meaning: 'No agreement with that id is published for this merchant.',
  },
  [ErrorCode.CODE_WRONG]: {
    status: 400,
    message: '验证码错误，还可尝试{remaining}次',
    meaning: 'The code does not match the newest code sent for this target and purpose; data.remaining tries are left.',
  },
  [ErrorCode.CODE_EXPIRED]: {
    status: 400,
    message: '验证码已失效，请重新获取',
    meaning: 'The newest code is older than 10 minutes, was already used, or was replaced by a newer one.',
  },
  [ErrorCode.CODE_BURNED]: {
    status: 400,
    message: '验证码错误次数过多，请重新获取',
    meaning: 'Five wrong tries burned the code; a new one must be requested.',
  },
  [ErrorCode.CODE_TOO_SOON]: {
    status: 429,
    message: '验证码发送过于频繁，请{seconds}秒后再试',
    meaning: 'A code for this target and purpose was sent less than 60 s ago; data.retry_after is the wait.',
  },
  [ErrorCode.CODE_DAILY_LIMIT]: {
    status: 429,
    message: '今日验证码发送次数已达上限，请{seconds}秒后再试',
    meaning: 'Ten codes went to this phone or e-mail within 24 hours; data.retry_after is the wait.',
  },
  [ErrorCode.CODE_IP_LIMIT]: {
    status: 429,
    message: '当前网络请求验证码过于频繁，请{seconds}秒后再试',
    meaning: 'Thirty codes were requested from this IP address within 5 minutes; data.retry_after is the wait.',
  },
  [ErrorCode.PHONE_TAKEN]: {
    status: 409,
    message: '该手机号已注册，请直接登录',
    meaning: 'Sign-up with a phone that already has an account at this merchant.',
  },
  [ErrorCode.EMAIL_TAKEN]: {
    status: 409,
    message: '该邮箱已被其他账户绑定',
    meaning: 'The e-mail already belongs to another account of this merchant.',
  },
  [ErrorCode.BAD_CREDENTIALS]: {
    status: 400,
    message: '账号或密码错误',
    variants: { lockWarning: '账号或密码错误，再错{remaining}次将锁定{minutes}分钟' },
    meaning:
      'No such account, or a wrong password; the two are not told apart. From the third wrong password within 15 minutes the ' +
      'message warns of the lock (variant lockWarning): data.remaining wrong passwords are left before it.',
  },
  [ErrorCode.LOGIN_LOCKED]: {
    status: 429,
    message: '密码错误次数过多，账户已锁定，请{minutes}分钟后再试',
    meaning:
      'Five wrong passwords within 15 minutes (at sign-in or as the old password of a change) lock password sign-in and the ' +
      'password change for 15 minutes; data.retry_after in seconds.',
  },
  [ErrorCode.VERIFICATION_REQUIRED]: {
    status: 403,
    message: '请先完成登录安全验证',
    meaning: 'The session waits for the second verification; it can only request and check the access code, or log out.',
  },
  [ErrorCode.EMAIL_REQUIRED]: {
    status: 403,
    message: '请先绑定邮箱',
    meaning: 'The account has no e-mail yet; the session can only bind one, or log out.',
  },
  [ErrorCode.INVITATION_UNKNOWN]: {
    status: 400,
    message: '邀请码不存在',
    meaning: 'No customer manager of this merchant has that invitation code.',
  },
  [ErrorCode.PHONE_NOT_REGISTERED]: {
    status: 404,
    message: '该手机号未注册',
    meaning: 'Password recovery for a phone with no account at this merchant.',
  },
  [ErrorCode.EMAIL_NOT_REGISTERED]: {
    status: 404,
    message: '该邮箱未绑定账户',
    meaning: 'Password recovery for an e-mail that no account of this merchant has.',
  },
  [ErrorCode.RESET_TICKET_INVALID]: {
    status: 400,
    message: '验证已失效，请重新获取验证码',
    meaning: 'The phone reset ticket is missing, unknown, used or older than 10 minutes.',
  },
  [ErrorCode.EMAIL_ALREADY_BOUND]: {
    status: 409,
    message: '账户已绑定邮箱',
    meaning: 'The account already has an e-mail; binding is only for accounts without one.',
  },
  [ErrorCode.CODE_NOT_SENT]: {
    status: 400,
    message: '请先获取验证码',
    meaning: 'No code was ever sent to this target for this purpose.',
  },
  [ErrorCode.DEVICE_NOT_FOUND]: {
    status: 404,
    message: '该设备不存在或已移除',
    meaning: 'No trusted device with that id on this account.',
  },
  [ErrorCode.NO_EMAIL_ON_ACCOUNT]: {
    status: 400,
    message: '账户未绑定邮箱，请使用手机验证',
    meaning: 'An e-mail access code was asked for an account that has no e-mail.',
  },
  [ErrorCode.CODE_NOT_DELIVERED]: {
    status: 502,
    message: '验证码发送失败，请稍后重试',
    meaning: 'The SMS provider refused the message or did not answer; the code was withdrawn, so it counts against no send limit.',
  },
  [ErrorCode.RESET_LINK_UNAVAILABLE]: {
    status: 503,
    message: '暂时无法发送重置邮件，请联系客服',
    meaning: 'In production the merchant has no origin for links (merchant:set --origin), so no reset link can be built; nothing was sent.',
  },
  [ErrorCode.TRX_PASSWORD_REQUIRED]: {
    status: 403,
    message: messages.tradePasswordRequired,
    meaning:
      'The account has a trade password and the call moves money out of the wallet or a card (open, batch, top-up, withdrawal, ' +
      'cancelling a card that holds money, an export with full numbers) without trx_password; nothing changed.',
  },
  [ErrorCode.TRX_PASSWORD_WRONG]: {
    status: 400,
    message: '交易密码错误，还可尝试{remaining}次',
    meaning:
      'The trade password (trx_password, or old_trx_password when changing it) is wrong; nothing changed. data.remaining wrong tries ' +
      'are left within 15 minutes before the trade password locks.',
  },
  [ErrorCode.TRX_PASSWORD_LOCKED]: {
    status: 429,
    message: '交易密码错误次数过多，已锁定至{until}（北京时间），请{minutes}分钟后再试',
    meaning:
      'Five wrong trade passwords within 15 minutes lock it for 15 minutes: no call that needs it is taken, not even with the right one, ' +
      'and it cannot be changed (忘记交易密码 still resets it). The message names the lock\'s end in China time (HH:mm); ' +
      'data.retry_after in seconds, data.locked_until ISO 8601.',
  },
  [ErrorCode.TRX_PASSWORD_OLD_REQUIRED]: {
    status: 400,
    message: '请输入原交易密码',
    meaning: 'PUT /account/trx-password on an account that has a trade password, without old_trx_password; nothing changed.',
  },
  [ErrorCode.TRX_PASSWORD_SAME]: {
    status: 400,
    message: '新交易密码不能与原交易密码相同',
    meaning: 'PUT /account/trx-password with the current trade password as the new one; nothing changed.',
  },
  [ErrorCode.LOGIN_PASSWORD_REQUIRED]: {
    status: 400,
    message: messages.loginPasswordRequired,
    meaning: 'PUT /account/trx-password setting the first trade password without the login password (password); nothing changed.',
  },
  [ErrorCode.LOGIN_PASSWORD_WRONG]: {
    status: 400,
    message: '登录密码错误',
    variants: { lockWarning: '登录密码错误，再错{remaining}次将锁定{minutes}分钟' },
    meaning:
      'PUT /account/trx-password setting the first trade password with a wrong login password; nothing changed. It counts as a wrong ' +
      'password of the sign-in lock (5 within 15 minutes lock password sign-in, the password change and this for 15 minutes, answered ' +
      '2010); from the third the message warns of it, data.remaining.',
  },
  [SecurityErrorCode.OLD_PASSWORD_WRONG]: {
    status: 400,
    message: '原密码错误',
    variants: { lockWarning: '原密码错误，再错{remaining}次将锁定{minutes}分钟' },
    meaning:
      'PUT /account/password with a wrong old_password. It counts as a wrong password of the sign-in lock (5 within 15 minutes lock ' +
      'password sign-in and this change for 15 minutes, answered 2010); from the third the message warns of it, data.remaining.',
  },
  [SecurityErrorCode.PASSWORD_UNCHANGED]: {
    status: 400,
    message: messages.passwordUnchanged,
    meaning: 'PUT /account/password with a new password equal to the old one; nothing changed.',
  },
  [SecurityErrorCode.EMAIL_UNCHANGED]: {
    status: 400,
    message: messages.emailUnchanged,
    meaning: 'POST /account/email/change to the e-mail the account already has.',
  },
  [SecurityErrorCode.PHONE_UNCHANGED]: {
    status: 400,
    message: messages.phoneUnchanged,
    meaning: 'POST /account/phone/change to the phone the account already has.',
  },
  [SecurityErrorCode.PHONE_IN_USE]: {
    status: 409,
    message: '该手机号已被其他账户使用',
    meaning: 'A phone change (its code or the change) to a phone that another account of this merchant signs in with.',
  },
  [SecurityErrorCode.SESSION_NOT_FOUND]: {
    status: 404,
    message: '该登录会话不存在或已结束',
    meaning: "No live session with that id belongs to the signed-in account (another account's session answers the same).",
  },
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
  [ErrorCode.MESSAGE_NOT_FOUND]: {
    status: 404,
    message: '消息不存在',
    meaning: 'No station message of this account, nor announcement of this merchant, has that id.',
  },
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
  [CardErrorCode.EXPORT_FILE_DAMAGED]: {
    status: 410,
    message: '导出文件校验失败，无法下载，请重新导出',
    meaning: "The export's sealed file on the server does not open with the card-data key (changed, cut short, or another export's); nothing of it was sent.",
  },
  [ErrorCode.BALANCE_LIMIT]: {
    status: 400,
    message: '金额超出账户可容纳的上限，未做任何变动',
    meaning: 'The movement would take an account past the largest balance the ledger stores; nothing moved.',
  },
};

/** Codes on which the portal shows the message, logs out and rejects the call (spec §8). */
