import type { CodePurpose } from '@portal/contract/enums';
import { escapeHtml } from '../../lib/html.ts';
import { chinaTime } from '../wallet/service.ts';

/** The texts of the codes and links the portal sends; the merchant's name signs each. */
const purposeText: Record<CodePurpose, string> = {
  MARK_TYPE_REGISTER: '用于注册账户',
  MARK_TYPE_BIND_EMAIL: '用于绑定邮箱',
  MARK_TYPE_ACCESS: '用于身份安全验证',
  FORGET_PASSWORD: '用于重置登录密码',
  FORGET_TRX_PASSWORD: '用于重置交易密码',
};

export function codeSms(merchantName: string, purpose: CodePurpose, code: string) {
  return `【${merchantName}】您的验证码为${code}，${purposeText[purpose]}，10分钟内有效，请勿泄露给他人。`;
}

export function codeMail(merchantName: string, purpose: CodePurpose, code: string) {
  return {
    subject: `【${merchantName}】邮箱验证码`,
    text: `您好！\n\n您的验证码为 ${code}，${purposeText[purpose]}，10分钟内有效。\n如非本人操作，请忽略本邮件，并注意账户安全。\n\n${merchantName}`,
  };
}

export function resetLinkMail(merchantName: string, trade: boolean, link: string) {
  const what = trade ? '交易密码' : '登录密码';
  const name = escapeHtml(merchantName);
  const href = escapeHtml(link);
  return {
    subject: `【${merchantName}】重置${what}`,
    text: `您好！\n\n您正在重置${what}，请在10分钟内打开以下链接完成重置（链接仅可使用一次）：\n${link}\n\n如非本人操作，请忽略本邮件，您的密码不会改变。\n\n${merchantName}`,
    html: `<p>您好！</p><p>您正在重置${what}，请在10分钟内点击以下链接完成重置（链接仅可使用一次）：</p><p><a href="${href}">${href}</a></p><p>如非本人操作，请忽略本邮件，您的密码不会改变。</p><p>${name}</p>`,
  };
}

/** A change to how the account is secured, told to the account so that one its owner did not make is seen. */
export type SecurityChange = 'trx-password-set' | 'trx-password-changed' | 'trx-password-reset';

const securityChangeText: Record<SecurityChange, { title: string; what: string }> = {
  'trx-password-set': { title: '交易密码已设置', what: '您的交易密码已于 {at}（北京时间）设置' },
  'trx-password-changed': { title: '交易密码已修改', what: '您的交易密码已于 {at}（北京时间）修改' },
  'trx-password-reset': { title: '交易密码已重置', what: '您的交易密码已于 {at}（北京时间）通过邮箱重置' },
};

/**
 * The station message and the e-mail of a security change: what changed and when, in China time
 * ("2026-11-25 10:00"), and what to do if it was not the owner.
 */
export function securityChangeNotice(kind: SecurityChange, at: Date, merchantName: string) {
  const { title, what } = securityChangeText[kind];
  const sentence = `${what.replace('{at}', chinaTime(at).slice(0, 16))}。如非本人操作，请立即修改登录密码并联系客服。`;
  return {
    title,
    content: `<p>${escapeHtml(sentence)}</p>`,
    mail: {
      subject: `【${merchantName}】${title}`,
      text: `您好！\n\n${sentence}\n\n${merchantName}`,
      html: `<p>您好！</p><p>${escapeHtml(sentence)}</p><p>${escapeHtml(merchantName)}</p>`,
    },
  };
}
