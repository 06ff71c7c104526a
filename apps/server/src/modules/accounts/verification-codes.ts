import type { SendCodeAutoBody, SendCodeBody } from '@portal/contract/account';
import type { SendType } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import type { Db } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import { type CodeService, emailTarget, phoneTarget } from '../codes/service.ts';
import type { MerchantRow } from '../merchants/service.ts';
import type { Authenticated } from '../sessions/service.ts';
import type { Caller } from '../../http/caller.ts';
import { accessTarget, type SendCode } from './code-delivery.ts';
import type { SecurityCalls } from './security-calls.ts';
import { findMemberByEmail, findMemberByPhone } from './store.ts';

interface VerificationCodeDeps {
  db: Db;
  codes: CodeService;
  sendTo: SendCode;
  security: Pick<SecurityCalls, 'sendChangeCode' | 'sendCurrentAddressCode'>;
}

/**
 * The codes an account asks for by phone or e-mail: to sign up, to bind an e-mail, the access code
 * of its second verification and of a sensitive step (a card's number), and an address change's.
 */
export function createVerificationCodePart({ db, codes, sendTo, security }: VerificationCodeDeps) {
  return {
    /** POST /account/send/code: a code for sign-up (phone), binding an e-mail, an access code, or a change of e-mail or phone. */
    async sendCode(merchant: MerchantRow, body: SendCodeBody, caller: Caller, auth: () => Promise<Authenticated>) {
      if (body.mark_type === 'MARK_TYPE_REGISTER') {
        if (body.send_type !== 'SEND_TYPE_PHONE' || !body.phone_info) throw new AppError(ErrorCode.VALIDATION, { message: '注册仅支持手机号' });
        const { phone, phone_prefix } = body.phone_info;
        if (await findMemberByPhone(db, merchant.id, phone_prefix, phone)) {
          await codes.countLookup({ merchantId: merchant.id, ip: caller.ip });
          throw new AppError(ErrorCode.PHONE_TAKEN);
        }
        return sendTo(merchant, 'SEND_TYPE_PHONE', { phone, prefix: phone_prefix }, 'MARK_TYPE_REGISTER', caller.ip);
      }
      if (body.mark_type === 'MARK_TYPE_BIND_EMAIL') {
        if (body.send_type !== 'SEND_TYPE_EMAIL' || body.email === undefined) throw new AppError(ErrorCode.VALIDATION, { message: '请输入邮箱' });
        const session = await auth();
        if (session.member.email) throw new AppError(ErrorCode.EMAIL_ALREADY_BOUND);
        const owner = await findMemberByEmail(db, merchant.id, body.email);
        if (owner && owner.id !== session.member.id) throw new AppError(ErrorCode.EMAIL_TAKEN);
        return sendTo(merchant, 'SEND_TYPE_EMAIL', { email: body.email }, 'MARK_TYPE_BIND_EMAIL', caller.ip);
      }
      if (body.mark_type === 'MARK_TYPE_CHANGE_EMAIL' || body.mark_type === 'MARK_TYPE_CHANGE_PHONE')
        return security.sendChangeCode(merchant, body, caller, await auth());
      // an access code always goes to the account's own phone or e-mail
      const session = await auth();
      const own = accessTarget(session.member, body.send_type);
      const asked = body.send_type === 'SEND_TYPE_EMAIL' ? emailTarget(body.email ?? '') : phoneTarget(body.phone_info?.phone_prefix ?? '', body.phone_info?.phone ?? '');
      if (asked !== own.target) throw new AppError(ErrorCode.VALIDATION, { message: '请使用账户绑定的手机号或邮箱' });
      return sendTo(merchant, body.send_type, own, 'MARK_TYPE_ACCESS', caller.ip);
    },

    /** Uses an access code sent to the account's own phone or e-mail (send/code-auto), e.g. before a card's number is shown. */
    async useAccessCode(merchantId: string, account: Authenticated['member'], channel: SendType, captcha: string) {
      await codes.use({ merchantId, target: accessTarget(account, channel).target, purpose: 'MARK_TYPE_ACCESS', code: captcha });
    },

    /**
     * POST /account/send/code-auto: an access code to the signed-in account's own phone or e-mail, or the
     * current address's code of an e-mail or phone change.
     */
    async sendAccessCode(merchant: MerchantRow, auth: Authenticated, body: SendCodeAutoBody, caller: Caller) {
      if (body.mark_type !== 'MARK_TYPE_ACCESS') return security.sendCurrentAddressCode(merchant, auth, body, caller);
      return sendTo(merchant, body.send_type, accessTarget(auth.member, body.send_type), 'MARK_TYPE_ACCESS', caller.ip);
    },
  };
}
