import type { CodePurpose } from '@portal/contract/enums';
import { escapeHtml } from '../../lib/html.ts';

/** The texts of the codes and links the portal sends; the merchant's name signs each. */
const purposeText: Record<CodePurpose, string> = {
  MARK_TYPE_REGISTER: '用于注册账户',
  MARK_TYPE_BIND_EMAIL: '用于绑定邮箱',
  MARK_TYPE_ACCESS: '用于身份安全验证',
  // the same words to the old address and to the new one: the old one's owner learns a change is asked for
  MARK_TYPE_CHANGE_EMAIL: '用于更换账户绑定的邮箱',
  MARK_TYPE_CHANGE_PHONE: '用于更换账户绑定的手机号',
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
