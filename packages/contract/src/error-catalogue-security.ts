import type { CatalogueEntry } from './error-catalogue-entry.ts';
import { ErrorCode } from './errors.ts';
import { messages } from './rules.ts';
import { SecurityErrorCode } from './security-errors.ts';

/** The account's secrets: the trade password, the login password, contact changes and sessions. */
export const securityErrors: Record<number, CatalogueEntry> = {
  [ErrorCode.TRX_PASSWORD_REQUIRED]: {
    status: 403,
    message: messages.tradePasswordRequired,
    meaning:
      'The account has a trade password and the call moves money out of the wallet or a card (open, batch, top-up, withdrawal, ' +
      'cancelling a card that holds money, an export with full numbers) without trx_password; nothing changed. ' +
      'A call that needs a trade password even before one is set (handing ownership over) answers it with the notSet wording ' +
      'and data.set = false while the caller has none.',
    variants: { notSet: '请先在账户设置中设置交易密码' },
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
};
