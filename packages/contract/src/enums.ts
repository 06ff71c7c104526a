/** The enumerations of spec §3, with their 中文 labels where the portal shows them. */

export const CURRENCIES = ['USD', 'CNY'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const MERCHANT_COLORS = [
  'MERCHANT_COLOR_BLUE',
  'MERCHANT_COLOR_ORANGE',
  'MERCHANT_COLOR_PURPLE',
  'MERCHANT_COLOR_RED',
  'MERCHANT_COLOR_YELLOW',
] as const;
export type MerchantColor = (typeof MERCHANT_COLORS)[number];

export const CARD_STATUSES = [
  'CARD_STATUS_INIT',
  'NORMAL',
  'FAIL',
  'FREEZE',
  'DELETE',
  'FREEZING',
  'DELETING',
  'UNFREEZING',
] as const;
export type CardStatus = (typeof CARD_STATUSES)[number];
export const cardStatusLabel: Record<CardStatus, string> = {
  CARD_STATUS_INIT: '申请中',
  NORMAL: '使用中',
  FAIL: '开卡失败',
  FREEZE: '已冻结',
  DELETE: '已注销',
  FREEZING: '冻结中',
  DELETING: '注销中',
  UNFREEZING: '解冻中',
};

export const CARD_UPDATE_ACTIONS = ['FREEZE', 'UNFREEZE'] as const;
export type CardUpdateAction = (typeof CARD_UPDATE_ACTIONS)[number];

export const WALLET_TRANSACTION_TYPES = [
  'ADMIN_RECHARGE_IN',
  'TRANSFER_OUT_TO_CARD',
  'ADMIN_RECHARGE_OUT',
  'TRANSFER_IN_FROM_CARD',
  'OPEN_CARD',
  'DECLINED_FEE',
  'ADJUST_OUT',
] as const;
export type WalletTransactionType = (typeof WALLET_TRANSACTION_TYPES)[number];
export const walletTransactionTypeLabel: Record<WalletTransactionType, string> = {
  ADMIN_RECHARGE_IN: '充值',
  TRANSFER_OUT_TO_CARD: '转出',
  ADMIN_RECHARGE_OUT: '系统转出',
  TRANSFER_IN_FROM_CARD: '提现',
  OPEN_CARD: '开卡',
  DECLINED_FEE: '拒付手续费',
  ADJUST_OUT: '调整转出',
};

export const CARD_TRANSACTION_STATUSES = ['CLOSED', 'PENDING', 'FAIL'] as const;
export type CardTransactionStatus = (typeof CARD_TRANSACTION_STATUSES)[number];
export const cardTransactionStatusLabel: Record<CardTransactionStatus, string> = {
  CLOSED: '已完成',
  PENDING: '处理中',
  FAIL: '失败',
};

export const CARD_TRANSACTION_TYPES = [
  'CONSUME',
  'ADJUST_IN',
  'REFUND',
  'TRANSFER_IN',
  'TRANSFER_OUT',
] as const;
export type CardTransactionType = (typeof CARD_TRANSACTION_TYPES)[number];
export const cardTransactionTypeLabel: Record<CardTransactionType, string> = {
  CONSUME: '消费',
  ADJUST_IN: '调整转入',
  REFUND: '退款',
  TRANSFER_IN: '转入',
  TRANSFER_OUT: '转出',
};

export const SEND_TYPES = ['SEND_TYPE_PHONE', 'SEND_TYPE_EMAIL'] as const;
export type SendType = (typeof SEND_TYPES)[number];

/**
 * What a code sent by POST /account/send/code is for. The spec's three, and the changes of the
 * security centre: MARK_TYPE_CHANGE_EMAIL and MARK_TYPE_CHANGE_PHONE each go to two targets, the
 * account's own address (the old one: proves the owner asks) and the new one (proves it is theirs);
 * the server tells them apart by the target, so one purpose serves both codes of a change.
 */
export const MARK_TYPES = [
  'MARK_TYPE_REGISTER',
  'MARK_TYPE_BIND_EMAIL',
  'MARK_TYPE_ACCESS',
  'MARK_TYPE_CHANGE_EMAIL',
  'MARK_TYPE_CHANGE_PHONE',
] as const;
export type MarkType = (typeof MARK_TYPES)[number];

export const RESET_TYPES = ['FORGET_PASSWORD', 'FORGET_TRX_PASSWORD'] as const;
export type ResetType = (typeof RESET_TYPES)[number];

export const BALANCE_STATUS_AVAILABLE = 'BALANCE_STATUS_AVAILABLE';
export const BALANCE_STATUS_FROZEN = 'BALANCE_STATUS_FROZEN';

/** The station-message event type that makes the portal re-check the wallet status. */
export const EVENT_TYPE_FREEZE = 'FREEZE';

/**
 * A FREEZE message's status says which way the wallet went: 'fail' it was frozen, 'success' it was
 * unfrozen (the stream's readers take 'success' as good news, spec §3).
 */
export const FREEZE_MESSAGE_STATUS = { frozen: 'fail', unfrozen: 'success' } as const;

/** The tag beside a message's title in the message center. */
export const MESSAGE_TAGS = ['WALLET_FROZEN', 'WALLET_UNFROZEN', 'FAILED'] as const;
export type MessageTag = (typeof MESSAGE_TAGS)[number];
export const messageTagLabel: Record<MessageTag, string> = {
  WALLET_FROZEN: '钱包冻结',
  WALLET_UNFROZEN: '钱包解冻',
  FAILED: '失败',
};

/**
 * Which tag a message carries, or none: a FREEZE message tells what happened to the wallet (its
 * status is not a success or failure of anything); any other message that is not a success failed.
 */
export function messageTagOf(message: { type: string; status: string }): MessageTag | null {
  if (message.type === EVENT_TYPE_FREEZE) return message.status === FREEZE_MESSAGE_STATUS.unfrozen ? 'WALLET_UNFROZEN' : 'WALLET_FROZEN';
  return message.status === 'success' ? null : 'FAILED';
}

/** What a verification code is for: the spec's mark types, and password recovery (SMS templates are per purpose). */
export const CODE_PURPOSES = [...MARK_TYPES, ...RESET_TYPES] as const;
export type CodePurpose = (typeof CODE_PURPOSES)[number];

/** How a sign-in attempt was made: a password by phone or by e-mail, or the second verification's code. */
export const LOGIN_METHODS = ['PASSWORD_PHONE', 'PASSWORD_EMAIL', 'VERIFY_PHONE', 'VERIFY_EMAIL'] as const;
export type LoginMethod = (typeof LOGIN_METHODS)[number];
export const loginMethodLabel: Record<LoginMethod, string> = {
  PASSWORD_PHONE: '手机号 + 密码',
  PASSWORD_EMAIL: '邮箱 + 密码',
  VERIFY_PHONE: '安全验证（短信验证码）',
  VERIFY_EMAIL: '安全验证（邮箱验证码）',
};

/**
 * How a sign-in attempt ended. VERIFICATION_REQUIRED: the password was right on a device that is not
 * trusted, so the second verification was asked for (its own attempt follows).
 */
export const LOGIN_RESULTS = [
  'SUCCESS',
  'VERIFICATION_REQUIRED',
  'WRONG_PASSWORD',
  'WRONG_CODE',
  'CODE_EXPIRED',
  'LOCKED',
  'DISABLED',
] as const;
export type LoginResult = (typeof LOGIN_RESULTS)[number];
export const loginResultLabel: Record<LoginResult, string> = {
  SUCCESS: '成功',
  VERIFICATION_REQUIRED: '待安全验证',
  WRONG_PASSWORD: '密码错误',
  WRONG_CODE: '验证码错误',
  CODE_EXPIRED: '验证码已失效',
  LOCKED: '已锁定',
  DISABLED: '账户已停用',
};

/** The stages of a session: waiting for the second verification, for an e-mail, or signed in. */
export const SESSION_STAGES = ['VERIFY', 'BIND_EMAIL', 'FULL'] as const;
export type SessionStage = (typeof SESSION_STAGES)[number];

/** A member's role in their team (team.ts holds what each may do). */
export const ROLES = ['OWNER', 'ADMIN', 'FINANCE', 'MEMBER', 'VIEWER'] as const;
export type Role = (typeof ROLES)[number];
/** Each role's name as the portal shows it (here, free of the schema library, for the sign-up page too). */
export const ROLE_LABELS: Record<Role, string> = {
  OWNER: '所有者',
  ADMIN: '管理员',
  FINANCE: '财务',
  MEMBER: '成员',
  VIEWER: '观察员',
};
export const MEMBER_STATUSES = ['ACTIVE', 'SUSPENDED'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];
