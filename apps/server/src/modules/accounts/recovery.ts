import type { z } from 'zod';
import type { forgetCheckBody, forgetCodeBody, forgetPasswordBody, forgetTrxPasswordBody, resetLinkBody } from '@portal/contract/account';
import { ErrorCode } from '@portal/contract/errors';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { hashPassword, keyedHash, randomToken } from '../../lib/crypto.ts';
import { maskEmail } from '../../lib/mask.ts';
import type { MailSender } from '../../providers/mail/port.ts';
import { type CodeService, emailTarget, phoneTarget } from '../codes/service.ts';
import type { MerchantRow, MerchantService } from '../merchants/service.ts';
import type { SessionService } from '../sessions/service.ts';
import type { Caller } from '../../http/caller.ts';
import type { SendCode } from './code-delivery.ts';
import { resetLinkMail } from './notices.ts';
import type { SecurityCalls } from './security-calls.ts';
import { findMemberByEmail, findMemberByPhone, insertResetTicket, setPassword, setTrxPassword, useResetTicket } from './store.ts';

const TICKET_TTL_MS = 10 * 60_000;

interface RecoveryDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'production' | 'port'>;
  codes: CodeService;
  sessions: SessionService;
  merchants: Pick<MerchantService, 'mailLinkOrigin'>;
  mail: MailSender;
  sendTo: SendCode;
  tell: SecurityCalls['tell'];
  /** the key codes and tickets are hashed with (CODE_HASH_KEY) */
  codeHashKey: () => string;
}

/**
 * A forgotten password: the login password back by an SMS code and its single-use ticket or by an
 * e-mailed link, the trade password by an e-mailed link only.
 */
export function createRecoveryPart(deps: RecoveryDeps) {
  const { db, clock, codes, sessions, tell } = deps;
  // reset tickets are random, yet kept as keyed hashes too: the table alone authorises nothing
  const ticketHash = (ticket: string) => keyedHash(deps.codeHashKey(), `ticket:${ticket}`);

  return {
    /** POST /account/forget-password/code: a code by SMS, or a reset link by e-mail. */
    async forgetCode(merchant: MerchantRow, body: z.infer<typeof forgetCodeBody>, caller: Caller) {
      if (body.phone_info) {
        if (body.type !== 'FORGET_PASSWORD') throw new AppError(ErrorCode.VALIDATION, { message: '交易密码仅支持通过邮箱重置' });
        const { phone, phone_prefix } = body.phone_info;
        if (!(await findMemberByPhone(db, merchant.id, phone_prefix, phone))) {
          await codes.countLookup({ merchantId: merchant.id, ip: caller.ip });
          throw new AppError(ErrorCode.PHONE_NOT_REGISTERED);
        }
        return deps.sendTo(merchant, 'SEND_TYPE_PHONE', { phone, prefix: phone_prefix }, 'FORGET_PASSWORD', caller.ip);
      }
      const email = (body.email ?? '').toLowerCase();
      if (!(await findMemberByEmail(db, merchant.id, email))) {
        await codes.countLookup({ merchantId: merchant.id, ip: caller.ip });
        throw new AppError(ErrorCode.EMAIL_NOT_REGISTERED);
      }
      const purpose = body.type;
      // the merchant's own origin: the request's Host and X-Forwarded-* headers never choose where the code goes
      const origin = await deps.merchants.mailLinkOrigin(deps.config, merchant, caller.log);
      const sent = await codes.issue({ merchantId: merchant.id, target: emailTarget(email), purpose, ip: caller.ip }, (code) => {
        const query = new URLSearchParams({ email, code, type: purpose });
        const link = `${origin}/reset-password?${query.toString()}`;
        return deps.mail.send({ to: email, ...resetLinkMail(merchant.name, purpose === 'FORGET_TRX_PASSWORD', link) });
      });
      return { resend_after: sent.resendAfter, masked_target: maskEmail(email) };
    },

    /** POST /account/forget-password/check: the phone code; answers a single-use reset ticket. */
    async forgetCheck(merchant: MerchantRow, body: z.infer<typeof forgetCheckBody>) {
      const { phone, phone_prefix } = body.phone_info;
      const account = await findMemberByPhone(db, merchant.id, phone_prefix, phone);
      if (!account) throw new AppError(ErrorCode.PHONE_NOT_REGISTERED);
      await codes.use({ merchantId: merchant.id, target: phoneTarget(phone_prefix, phone), purpose: 'FORGET_PASSWORD', code: body.captcha });
      const ticket = randomToken();
      const now = clock.now();
      await insertResetTicket(db, {
        merchantId: merchant.id,
        accountId: account.accountId,
        memberId: account.id,
        ticketHash: ticketHash(ticket),
        createdAt: now,
        expiresAt: new Date(now.getTime() + TICKET_TTL_MS),
      });
      return { ticket };
    },

    /**
     * PUT /account/forget-password: by the phone ticket, or by the e-mail link's code. Ends every
     * session, and the account is told (station message, and an e-mail to its address).
     */
    async forgetPassword(merchant: MerchantRow, body: z.infer<typeof forgetPasswordBody>, caller: Caller) {
      const passwordHash = await hashPassword(body.password);
      const now = clock.now();
      if (body.phone_info) {
        const { phone, phone_prefix } = body.phone_info;
        const account = await findMemberByPhone(db, merchant.id, phone_prefix, phone);
        if (!account) throw new AppError(ErrorCode.RESET_TICKET_INVALID);
        const mail = await db.transaction(async (tx) => {
          if (!(await useResetTicket(tx, merchant.id, account.id, ticketHash(body.ticket ?? ''), now))) return null;
          await setPassword(tx, account.id, passwordHash);
          await sessions.endAll(tx, account, 'password-reset');
          return tell(tx, merchant, { accountId: account.accountId, memberId: account.id }, 'LOGIN_PASSWORD_RESET_BY_PHONE', [account.email], caller);
        });
        if (!mail) throw new AppError(ErrorCode.RESET_TICKET_INVALID);
        await mail();
        return;
      }
      const email = (body.email ?? '').toLowerCase();
      const account = await findMemberByEmail(db, merchant.id, email);
      if (!account) throw new AppError(ErrorCode.EMAIL_NOT_REGISTERED);
      await codes.use({ merchantId: merchant.id, target: emailTarget(email), purpose: 'FORGET_PASSWORD', code: body.captcha ?? '' });
      const mail = await db.transaction(async (tx) => {
        await setPassword(tx, account.id, passwordHash);
        await sessions.endAll(tx, account, 'password-reset');
        return tell(tx, merchant, { accountId: account.accountId, memberId: account.id }, 'LOGIN_PASSWORD_RESET_BY_EMAIL', [account.email], caller);
      });
      await mail();
    },

    /** POST /account/forget-password/link: whether an e-mailed reset link still works, and until when. */
    async resetLink(merchant: MerchantRow, body: z.infer<typeof resetLinkBody>) {
      // no account, no code was ever sent there: the same answer as for a link never sent
      const target = emailTarget(body.email);
      const { expiresAt } = await codes.peek({ merchantId: merchant.id, target, purpose: body.type, code: body.captcha });
      return { expires_at: expiresAt.toISOString() };
    },

    /** PUT /account/forget-trx-password: a new trade password by the e-mail link's code; it also lifts a lock. */
    async forgetTrxPassword(merchant: MerchantRow, body: z.infer<typeof forgetTrxPasswordBody>, caller: Caller) {
      const account = await findMemberByEmail(db, merchant.id, body.email);
      if (!account) throw new AppError(ErrorCode.EMAIL_NOT_REGISTERED);
      await codes.use({ merchantId: merchant.id, target: emailTarget(body.email), purpose: 'FORGET_TRX_PASSWORD', code: body.captcha });
      const hash = await hashPassword(body.trx_password);
      const mail = await db.transaction(async (tx) => {
        await setTrxPassword(tx, account.id, hash);
        return tell(tx, merchant, { accountId: account.accountId, memberId: account.id }, 'TRX_PASSWORD_RESET', [account.email], caller);
      });
      await mail();
    },
  };
}
