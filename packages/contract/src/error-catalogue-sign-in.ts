import type { CatalogueEntry } from './error-catalogue-entry.ts';
import { ErrorCode } from './errors.ts';

/** Signing up and in: codes, credentials, invitations, resets and devices. */
export const signInErrors: Record<number, CatalogueEntry> = {
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
};
