import type { Tx } from '../../db/engine.ts';
import type { Clock } from '../../lib/clock.ts';
import { escapeHtml } from '../../lib/html.ts';
import type { MailSender } from '../../providers/mail/port.ts';
import type { MerchantRow } from '../merchants/service.ts';
import type { MessageService } from '../messages/service.ts';
import { chinaDateTime } from '@portal/contract/date-time';
import type { Caller } from '../../http/caller.ts';

/**
 * What the account is told after each change in the security centre: a station message and an
 * e-mail (for an e-mail change, to the old address too), so that a change its owner did not make is
 * seen. Every text of them is here.
 */
export const SECURITY_CHANGES = [
  'LOGIN_PASSWORD',
  'LOGIN_PASSWORD_RESET_BY_PHONE',
  'LOGIN_PASSWORD_RESET_BY_EMAIL',
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
const SECURITY_MESSAGE_TYPE = 'SECURITY';
export type SecurityChange = (typeof SECURITY_CHANGES)[number];

const NOT_YOU = '如非本人操作，请立即修改登录密码并联系客服。';

// whoever changed the login password knows the new one, the owner does not: only a reset gets it back
const NOT_YOU_LOGIN = '如非本人操作，请立即通过“忘记密码”重置登录密码并联系客服。';

const texts: Record<SecurityChange, { title: string; done: (at: string) => string; notYou: string }> = {
  LOGIN_PASSWORD: {
    title: '登录密码已修改',
    done: (at) => `您的登录密码已于 ${at}（北京时间）修改，其他设备上的登录已全部退出。`,
    notYou: NOT_YOU_LOGIN,
  },
  LOGIN_PASSWORD_RESET_BY_PHONE: {
    title: '登录密码已重置',
    done: (at) => `您的登录密码已于 ${at}（北京时间）通过手机验证码重置，所有设备上的登录已全部退出。`,
    notYou: NOT_YOU_LOGIN,
  },
  LOGIN_PASSWORD_RESET_BY_EMAIL: {
    title: '登录密码已重置',
    done: (at) => `您的登录密码已于 ${at}（北京时间）通过邮箱重置，所有设备上的登录已全部退出。`,
    notYou: NOT_YOU_LOGIN,
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

/**
 * The station message (`title`, `content`) and the e-mail (`mail`, signed with the merchant's name) of
 * a change made at `at`.
 */
export function securityChangeNotice(kind: SecurityChange, at: Date, merchantName: string) {
  const text = texts[kind];
  const sentence = `${text.done(chinaDateTime(at))}${text.notYou}`;
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

export type TellSecurityChange = ReturnType<typeof securityTeller>;

/**
 * How every change of the account's security is told to it. `tell` posts the change's station
 * message inside the change's transaction and answers the sending of its e-mails (to each address of
 * `mailTo` that there is, once), to run once the change has committed. A mail that cannot be sent is
 * logged: the change stands, and the station message tells it.
 */
export function securityTeller(deps: { clock: Clock; messages: Pick<MessageService, 'post'>; mail: MailSender }) {
  return async function tell(tx: Tx, merchant: MerchantRow, who: { accountId: string; memberId: string }, kind: SecurityChange, mailTo: (string | null)[], caller: Caller) {
    const notice = securityChangeNotice(kind, deps.clock.now(), merchant.name);
    // a member's own security: the station message is theirs alone
    await deps.messages.post(tx, {
      merchantId: merchant.id,
      accountId: who.accountId,
      memberId: who.memberId,
      type: SECURITY_MESSAGE_TYPE,
      title: notice.title,
      content: notice.content,
    });
    const addresses = [...new Set(mailTo.filter((to): to is string => Boolean(to)))];
    return async () => {
      for (const to of addresses) {
        try {
          await deps.mail.send({ to, ...notice.mail });
        } catch (error) {
          caller.log.error({ err: error, kind }, 'security notice e-mail not sent');
        }
      }
    };
  };
}
