import type { SendCodeAnswer } from '@portal/contract/account';
import type { CodePurpose, SendType } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import { AppError } from '../../http/errors.ts';
import { maskEmail, maskPhone } from '../../lib/mask.ts';
import type { MailSender } from '../../providers/mail/port.ts';
import type { SmsSender } from '../../providers/sms/port.ts';
import { type CodeService, emailTarget, phoneTarget } from '../codes/service.ts';
import type { MerchantRow } from '../merchants/service.ts';
import type { Authenticated } from '../sessions/service.ts';
import { codeMail, codeSms } from './notices.ts';

/** Sends a code of `purpose` to a phone or an e-mail, within the code limits; answers where it went, masked. */
export type SendCode = (
  merchant: MerchantRow,
  channel: SendType,
  to: { phone?: string; prefix?: string; email?: string },
  purpose: CodePurpose,
  ip: string,
) => Promise<SendCodeAnswer>;

export function codeDelivery(deps: { codes: CodeService; sms: SmsSender; mail: MailSender }): SendCode {
  return async (merchant, channel, to, purpose, ip) => {
    if (channel === 'SEND_TYPE_PHONE') {
      const phone = to.phone as string;
      const prefix = to.prefix ?? '86';
      const sent = await deps.codes.issue({ merchantId: merchant.id, target: phoneTarget(prefix, phone), purpose, ip }, (code) =>
        deps.sms.send({ phone, phonePrefix: prefix, purpose, code, text: codeSms(merchant.name, purpose, code) }),
      );
      return { resend_after: sent.resendAfter, masked_target: `+${prefix} ${maskPhone(phone)}` };
    }
    const email = (to.email as string).toLowerCase();
    const sent = await deps.codes.issue({ merchantId: merchant.id, target: emailTarget(email), purpose, ip }, (code) =>
      deps.mail.send({ to: email, ...codeMail(merchant.name, purpose, code) }),
    );
    return { resend_after: sent.resendAfter, masked_target: maskEmail(email) };
  };
}

/** Where an access code of the signed-in member goes: always their own phone or e-mail. */
export function accessTarget(account: Authenticated['member'], channel: SendType) {
  if (channel === 'SEND_TYPE_EMAIL') {
    if (!account.email) throw new AppError(ErrorCode.NO_EMAIL_ON_ACCOUNT);
    return { email: account.email, target: emailTarget(account.email) };
  }
  return { phone: account.phone, prefix: account.phonePrefix, target: phoneTarget(account.phonePrefix, account.phone) };
}
