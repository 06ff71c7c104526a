import { escapeHtml } from '../../lib/html.ts';
import { chinaTime } from '../wallet/service.ts';

/**
 * What the account is told after each change in the security centre: a station message and an
 * e-mail (for an e-mail change, to the old address too), so that a change its owner did not make is
 * seen. Every text of them is here.
 */
export const SECURITY_CHANGES = [
  'LOGIN_PASSWORD',
  'TRX_PASSWORD_SET',
  'TRX_PASSWORD_CHANGED',
  'TRX_PASSWORD_RESET',
  'EMAIL',
  'PHONE',
  'DEVICE_REVOKED',
  'SESSION_ENDED',
  'OTHER_SESSIONS_ENDED',
] as const;

/** The station-message type of a security change. */
export const SECURITY_MESSAGE_TYPE = 'SECURITY';
export type SecurityChange = (typeof SECURITY_CHANGES)[number];

const NOT_YOU = '如非本人操作，请立即修改登录密码并联系客服。';

const texts: Record<SecurityChange, { title: string; done: (at: string) => string; notYou: string }> = {
  LOGIN_PASSWORD: {
    title: '登录密码已修改',
    done: (at) => `您的登录密码已于 ${at}（北京时间）修改，其他设备上的登录已全部退出。`,
    // whoever changed it knows the new password, the owner does not: only a reset gets it back
    notYou: '如非本人操作，请立即通过“忘记密码”重置登录密码并联系客服。',
  },
  TRX_PASSWORD_SET: {
    title: '交易密码已设置',
    done: (at) => `您的交易密码已于 ${at}（北京时间）设置，此后开卡、充值、提现等资金操作需输入交易密码。`,
    notYou: NOT_YOU,
  },
  TRX_PASSWORD_CHANGED: {
    title: '交易密码已修改',
    done: (at) => `您的交易密码已于 ${at}（北京时间）修改。`,
    notYou: NOT_YOU,
  },
  TRX_PASSWORD_RESET: {
    title: '交易密码已重置',
    done: (at) => `您的交易密码已于 ${at}（北京时间）通过邮箱重置。`,
    notYou: NOT_YOU,
  },
  EMAIL: {
    title: '绑定邮箱已更换',
    done: (at) => `您账户绑定的邮箱已于 ${at}（北京时间）更换。`,
    notYou: NOT_YOU,
  },
  PHONE: {
    title: '绑定手机号已更换',
    done: (at) => `您账户绑定的手机号已于 ${at}（北京时间）更换，此后请使用新手机号登录。`,
    notYou: NOT_YOU,
  },
  DEVICE_REVOKED: {
    title: '受信任设备已移除',
    done: (at) => `您账户的一台受信任设备已于 ${at}（北京时间）移除，该设备下次登录时需重新完成安全验证。`,
    notYou: NOT_YOU,
  },
  SESSION_ENDED: {
    title: '登录会话已结束',
    done: (at) => `您账户的一个登录会话已于 ${at}（北京时间）结束，该设备需重新登录。`,
    notYou: NOT_YOU,
  },
  OTHER_SESSIONS_ENDED: {
    title: '其他登录会话已结束',
    done: (at) => `您账户在其他设备上的登录会话已于 ${at}（北京时间）全部结束，这些设备需重新登录。`,
    notYou: NOT_YOU,
  },
};

/** "2026-11-25 10:00", China Standard Time. */
const minuteInChina = (at: Date) => chinaTime(at).slice(0, 16);

/**
 * The station message (`title`, `content`) and the e-mail (`mail`, signed with the merchant's name) of
 * a change made at `at`.
 */
export function securityChangeNotice(kind: SecurityChange, at: Date, merchantName: string) {
  const text = texts[kind];
  const sentence = `${text.done(minuteInChina(at))}${text.notYou}`;
  return {
    title: text.title,
    content: `<p>${escapeHtml(sentence)}</p>`,
    mail: {
      subject: `【${merchantName}】账户安全提醒：${text.title}`,
      text: `您好！\n\n${sentence}\n\n${merchantName}`,
      html: `<p>您好！</p><p>${escapeHtml(sentence)}</p><p>${escapeHtml(merchantName)}</p>`,
    },
  };
}
