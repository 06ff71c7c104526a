import { teamLimits } from '@portal/contract/team';
import { escapeHtml } from '../../lib/html.ts';

/** What an invitation says: who invited, to which company, in what role, and the link to sign up by. */
export interface InvitationWords {
  merchantName: string;
  teamName: string;
  inviter: string;
  role: string;
  link: string;
}

const hours = teamLimits.invitationHours;

export function invitationSms(words: InvitationWords) {
  return `【${words.merchantName}】${words.inviter}邀请您以「${words.role}」身份加入团队「${words.teamName}」，请在${hours}小时内打开链接完成注册：${words.link}`;
}

export function invitationMail(words: InvitationWords) {
  const html = {
    inviter: escapeHtml(words.inviter),
    teamName: escapeHtml(words.teamName),
    role: escapeHtml(words.role),
    link: escapeHtml(words.link),
    merchantName: escapeHtml(words.merchantName),
  };
  return {
    subject: `【${words.merchantName}】${words.inviter}邀请您加入团队「${words.teamName}」`,
    text: `您好！\n\n${words.inviter}邀请您以「${words.role}」身份加入${words.merchantName}上的团队「${words.teamName}」。\n请在${hours}小时内打开以下链接完成注册（链接仅可使用一次）：\n${words.link}\n\n如您不认识邀请人，请忽略本邮件。\n\n${words.merchantName}`,
    html: `<p>您好！</p><p>${html.inviter}邀请您以「${html.role}」身份加入${html.merchantName}上的团队「${html.teamName}」。</p><p>请在${hours}小时内点击以下链接完成注册（链接仅可使用一次）：</p><p><a href="${html.link}">${html.link}</a></p><p>如您不认识邀请人，请忽略本邮件。</p><p>${html.merchantName}</p>`,
  };
}
