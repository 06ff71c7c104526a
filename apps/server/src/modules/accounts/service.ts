import type { z } from 'zod';
import type {
  bindEmailBody,
  codeCheckBody,
  forgetCheckBody,
  forgetCodeBody,
  forgetPasswordBody,
  forgetTrxPasswordBody,
  resetLinkBody,
  LoginBody,
  RegisterBody,
  SendCodeAutoBody,
  SendCodeBody,
  TrxPasswordBody,
} from '@portal/contract/account';
import type { SendType } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db, Tx } from '../../db/engine.ts';
import type { Clock } from '../../lib/clock.ts';
import type { MailSender } from '../../providers/mail/port.ts';
import type { SmsSender } from '../../providers/sms/port.ts';
import { AppError } from '../../http/errors.ts';
import { idempotencyKey } from '../../http/idempotency.ts';
import { burnPasswordTime, hashPassword, keyedHash, randomToken, sha256, verifyPassword } from '../../lib/crypto.ts';
import type { CodePurpose, LoginMethod, LoginResult } from '@portal/contract/enums';
import { maskEmail, maskPhone } from '../../lib/mask.ts';
import { isUniqueViolation } from '../../lib/refused.ts';
import { type CodeService, emailTarget, phoneTarget } from '../codes/service.ts';
import type { ManagerService } from '../managers/service.ts';
import type { MerchantRow, MerchantService } from '../merchants/service.ts';
import type { MessageService } from '../messages/service.ts';
import type { Authenticated, SessionService } from '../sessions/service.ts';
import type { Caller } from './caller.ts';
import { codeMail, codeSms, resetLinkMail } from './notices.ts';
import { lockedError, loginPolicy, tradeLockedError, tradePasswordPolicy } from './password-policy.ts';
import { createSecurityPart, refusedOn } from './security.ts';
import { securityTeller } from './security-notice.ts';
import {
  type AccountRow,
  clearFailedLogins,
  bindRequestKey,
  clearTradePasswordTries,
  countWrongTradePassword,
  findRequestKey,
  lockTradePassword,
  findTradePassword,
  findAccountByEmail,
  findAccountById,
  findAccountByPhone,
  findTrustedDevice,
  insertAccount,
  insertResetTicket,
  insertTrustedDevice,
  claimPasswordTry,
  claimUnknownTry,
  findAccountLock,
  findUnknownLock,
  pruneUnknownSignIns,
  recordLoginAttempt,
  setEmailIfNone,
  setPassword,
  replaceTrxPassword,
  setTrxPassword,
  touchTrustedDevice,
  useResetTicket,
} from './store.ts';

export type { Caller } from './caller.ts';

/**
 * The request's Idempotency-Key (refused when missing or malformed), the call it is for (method and
 * route), and the digest of what it asks: its path's parameters and its body but the trade password.
 */
function keyOfRequest(request: FastifyRequest) {
  const key = idempotencyKey(request);
  const { trx_password: _password, ...body } = (request.body ?? {}) as Record<string, unknown>;
  return {
    key,
    operation: `${request.method} ${request.routeOptions.url}`,
    requestHash: sha256(JSON.stringify({ params: request.params ?? {}, body })),
  };
}

/**
 * Whether a keyed call kept a first answer under the request's Idempotency-Key (the card or batch it
 * opened, the movement it made): what lets the same request again go without the trade password.
 */
export type KeptAnswer = (request: FastifyRequest, key: string) => Promise<boolean>;

/** The refusal of a wrong sign-in password, counted: the lock once it set it, a warning from the third. */
function wrongPassword({ failures, lockedUntil }: { failures: number; lockedUntil: Date | null }, now: Date) {
  if (lockedUntil) return lockedError(lockedUntil, now);
  if (failures < loginPolicy.warnFromFailure) return new AppError(ErrorCode.BAD_CREDENTIALS);
  const remaining = loginPolicy.maxFailures - failures;
  return new AppError(ErrorCode.BAD_CREDENTIALS, {
    variant: 'lockWarning',
    params: { remaining, minutes: loginPolicy.windowMs / 60_000 },
    data: { remaining },
  });
}
export const DEVICE_TRUST_MS = 30 * 24 * 60 * 60_000;
const TICKET_TTL_MS = 10 * 60_000;

export interface AccountServiceDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'production' | 'port'>;
  codes: CodeService;
  sessions: SessionService;
  managers: ManagerService;
  merchants: Pick<MerchantService, 'mailLinkOrigin'>;
  /** security changes are told to the account as station messages */
  messages: Pick<MessageService, 'post'>;
  sms: SmsSender;
  mail: MailSender;
  /** the key codes and tickets are hashed with (CODE_HASH_KEY) */
  codeHashKey: () => string;
}

export function createAccountService(deps: AccountServiceDeps) {
  const { db, clock, codes, sessions } = deps;
  // reset tickets are random, yet kept as keyed hashes too: the table alone authorises nothing
  const ticketHash = (ticket: string) => keyedHash(deps.codeHashKey(), `ticket:${ticket}`);

  async function sendTo(merchant: MerchantRow, channel: SendType, to: { phone?: string; prefix?: string; email?: string }, purpose: CodePurpose, ip: string) {
    if (channel === 'SEND_TYPE_PHONE') {
      const phone = to.phone as string;
      const prefix = to.prefix ?? '86';
      const sent = await codes.issue({ merchantId: merchant.id, target: phoneTarget(prefix, phone), purpose, ip }, (code) =>
        deps.sms.send({ phone, phonePrefix: prefix, purpose, code, text: codeSms(merchant.name, purpose, code) }),
      );
      return { resend_after: sent.resendAfter, masked_target: `+${prefix} ${maskPhone(phone)}` };
    }
    const email = (to.email as string).toLowerCase();
    const sent = await codes.issue({ merchantId: merchant.id, target: emailTarget(email), purpose, ip }, (code) =>
      deps.mail.send({ to: email, ...codeMail(merchant.name, purpose, code) }),
    );
    return { resend_after: sent.resendAfter, masked_target: maskEmail(email) };
  }

  const tell = securityTeller({ clock, messages: deps.messages, mail: deps.mail });
  const security = createSecurityPart({ db, clock, codes, sessions, managers: deps.managers, tell, sendTo });

  /**
   * Records a sign-in attempt of a known account for its sign-in history (an unknown account's are
   * not kept), inside the caller's transaction when it has one.
   */
  const attempt = (tx: Tx, merchantId: string, accountId: string, method: LoginMethod, result: LoginResult, caller: Caller) =>
    recordLoginAttempt(tx, { merchantId, accountId, at: clock.now(), ip: caller.ip, userAgent: caller.userAgent.slice(0, 300), method, result });

  function accessTarget(account: Authenticated['account'], channel: SendType) {
    if (channel === 'SEND_TYPE_EMAIL') {
      if (!account.email) throw new AppError(ErrorCode.NO_EMAIL_ON_ACCOUNT);
      return { email: account.email, target: emailTarget(account.email) };
    }
    return { phone: account.phone, prefix: account.phonePrefix, target: phoneTarget(account.phonePrefix, account.phone) };
  }

  /**
   * The one rule of money leaving the wallet or a card: once the account has a trade password, the
   * call must carry it, right, and not while it is locked. The account's checks run one at a time
   * (its row locked over the check), so only wrong ones are counted, and however many arrive together
   * at most five wrong ones are checked in the window; a right one clears the count. Without a trade
   * password set, any call passes.
   */
  async function confirmTradePassword(accountId: string, given: string | undefined) {
    if (!(await findTradePassword(db, accountId)).hash) return;
    const refusal = await db.transaction(async (tx) => {
      const { hash, failures, lockedUntil } = await lockTradePassword(tx, accountId);
      if (!hash) return null;
      const now = clock.now();
      if (lockedUntil && lockedUntil.getTime() > now.getTime()) return tradeLockedError(lockedUntil, now);
      if (!given) return new AppError(ErrorCode.TRX_PASSWORD_REQUIRED);
      if (await verifyPassword(hash, given)) {
        if (failures > 0) await clearTradePasswordTries(tx, accountId);
        return null;
      }
      // the refusal is answered after the commit, so that the count stays
      const counted = await countWrongTradePassword(tx, accountId, now, tradePasswordPolicy.windowMs, tradePasswordPolicy.maxFailures);
      if (!counted || counted.lockedUntil) return tradeLockedError(counted?.lockedUntil ?? new Date(now.getTime() + tradePasswordPolicy.windowMs), now);
      const remaining = tradePasswordPolicy.maxFailures - counted.failures;
      return new AppError(ErrorCode.TRX_PASSWORD_WRONG, { params: { remaining }, data: { remaining } });
    });
    if (refusal) throw refusal;
  }

  /**
   * PUT /account/trx-password: the first trade password with the login password (a wrong one counts
   * toward the sign-in lock), or a new one with the current one (its try counted as any other). The
   * account is told by a station message and an e-mail.
   */
  async function setTradePassword(merchant: MerchantRow, auth: Authenticated, body: TrxPasswordBody, caller: Caller, loginConfirmed = false): Promise<void> {
    const accountId = auth.account.id;
    const { hash: current } = await findTradePassword(db, accountId);
    if (current) {
      if (!body.old_trx_password) throw new AppError(ErrorCode.TRX_PASSWORD_OLD_REQUIRED);
      await confirmTradePassword(accountId, body.old_trx_password);
      if (body.trx_password === body.old_trx_password) throw new AppError(ErrorCode.TRX_PASSWORD_SAME);
    } else if (!loginConfirmed) {
      // a session alone (a stolen one, say) must not set the password that then moves money
      if (!body.password) throw refusedOn(ErrorCode.LOGIN_PASSWORD_REQUIRED, 'password');
      const account = await findAccountById(db, accountId);
      if (!account) throw new AppError(ErrorCode.SESSION_UNKNOWN);
      await security.confirmLoginPassword(account, body.password, { wrong: ErrorCode.LOGIN_PASSWORD_WRONG, field: 'password' });
    }
    const hash = await hashPassword(body.trx_password);
    const mail = await db.transaction(async (tx) => {
      if (!(await replaceTrxPassword(tx, accountId, current, hash))) return null;
      return tell(tx, merchant, accountId, current ? 'TRX_PASSWORD_CHANGED' : 'TRX_PASSWORD_SET', [auth.account.email], caller);
    });
    // another change landed between the check and this one: checked again against the trade password it set
    if (!mail) return setTradePassword(merchant, auth, body, caller, loginConfirmed || current === null);
    await mail();
  }

  return {
    ...security,

    confirmTradePassword,

    /**
     * A preHandler for a call that moves money out of the wallet or a card (`when` says from its body
     * whether this one does): the trade password is confirmed before the call does anything.
     *
     * With `answered` (a keyed call), the call's Idempotency-Key belongs to this one call (method and
     * route) once a request with it got past the trade password: another call with the key is refused
     * (1006). The same request again (its path and body, the trade password no part of it) is not asked
     * for the password again when the call kept a first answer under the key (`answered`), which it
     * then answers; a call that was refused kept none, its rollback took everything, and the same
     * request again is a new one that confirms the trade password.
     */
    tradePasswordHook(when: (body: unknown) => boolean = () => true, options: { answered?: KeptAnswer } = {}) {
      return async (request: FastifyRequest) => {
        const accountId = request.auth.account.id;
        const keyed = options.answered ? keyOfRequest(request) : null;
        if (keyed && options.answered) {
          const earlier = await findRequestKey(db, accountId, keyed.key);
          if (earlier && earlier.operation !== keyed.operation) throw new AppError(ErrorCode.IDEMPOTENCY_CONFLICT, { data: { key: keyed.key } });
          if (earlier?.requestHash === keyed.requestHash && (await options.answered(request, keyed.key))) return;
        }
        if (when(request.body)) {
          const given = (request.body as { trx_password?: string } | undefined)?.trx_password;
          await confirmTradePassword(accountId, given);
        }
        if (keyed && !(await bindRequestKey(db, { accountId, ...keyed, createdAt: clock.now() }))) {
          // bound in between by a request of its own: another call's key is refused all the same
          const bound = await findRequestKey(db, accountId, keyed.key);
          if (bound && bound.operation !== keyed.operation) throw new AppError(ErrorCode.IDEMPOTENCY_CONFLICT, { data: { key: keyed.key } });
        }
      };
    },

    /** GET /account/info: who the signed-in account is, and whether it has a trade password. */
    async info(auth: Authenticated) {
      const { account } = auth;
      const { hash } = await findTradePassword(db, account.id);
      return { id: account.id, email: account.email, phone: account.phone, phone_prefix: account.phonePrefix, trx_password_set: hash !== null };
    },

    setTradePassword,

    /** POST /account/send/code: a code for sign-up (phone), binding an e-mail, an access code, or a change of e-mail or phone. */
    async sendCode(merchant: MerchantRow, body: SendCodeBody, caller: Caller, auth: () => Promise<Authenticated>) {
      if (body.mark_type === 'MARK_TYPE_REGISTER') {
        if (body.send_type !== 'SEND_TYPE_PHONE' || !body.phone_info)
          throw new AppError(ErrorCode.VALIDATION, { message: '注册仅支持手机号' });
        const { phone, phone_prefix } = body.phone_info;
        if (await findAccountByPhone(db, merchant.id, phone_prefix, phone)) {
          await codes.countLookup({ merchantId: merchant.id, ip: caller.ip });
          throw new AppError(ErrorCode.PHONE_TAKEN);
        }
        return sendTo(merchant, 'SEND_TYPE_PHONE', { phone, prefix: phone_prefix }, 'MARK_TYPE_REGISTER', caller.ip);
      }
      if (body.mark_type === 'MARK_TYPE_BIND_EMAIL') {
        if (body.send_type !== 'SEND_TYPE_EMAIL' || body.email === undefined)
          throw new AppError(ErrorCode.VALIDATION, { message: '请输入邮箱' });
        const session = await auth();
        if (session.account.email) throw new AppError(ErrorCode.EMAIL_ALREADY_BOUND);
        const owner = await findAccountByEmail(db, merchant.id, body.email);
        if (owner && owner.id !== session.account.id) throw new AppError(ErrorCode.EMAIL_TAKEN);
        return sendTo(merchant, 'SEND_TYPE_EMAIL', { email: body.email }, 'MARK_TYPE_BIND_EMAIL', caller.ip);
      }
      if (body.mark_type === 'MARK_TYPE_CHANGE_EMAIL' || body.mark_type === 'MARK_TYPE_CHANGE_PHONE')
        return security.sendChangeCode(merchant, body, caller, await auth());
      // an access code always goes to the account's own phone or e-mail
      const session = await auth();
      const own = accessTarget(session.account, body.send_type);
      const asked = body.send_type === 'SEND_TYPE_EMAIL' ? emailTarget(body.email ?? '') : phoneTarget(body.phone_info?.phone_prefix ?? '', body.phone_info?.phone ?? '');
      if (asked !== own.target) throw new AppError(ErrorCode.VALIDATION, { message: '请使用账户绑定的手机号或邮箱' });
      return sendTo(merchant, body.send_type, own, 'MARK_TYPE_ACCESS', caller.ip);
    },

    /** Uses an access code sent to the account's own phone or e-mail (send/code-auto), e.g. before a card's number is shown. */
    async useAccessCode(merchantId: string, account: Authenticated['account'], channel: SendType, captcha: string) {
      await codes.use({ merchantId, target: accessTarget(account, channel).target, purpose: 'MARK_TYPE_ACCESS', code: captcha });
    },

    /**
     * POST /account/send/code-auto: an access code to the signed-in account's own phone or e-mail, or the
     * current address's code of an e-mail or phone change.
     */
    async sendAccessCode(merchant: MerchantRow, auth: Authenticated, body: SendCodeAutoBody, caller: Caller) {
      if (body.mark_type !== 'MARK_TYPE_ACCESS') return security.sendCurrentAddressCode(merchant, auth, body, caller);
      return sendTo(merchant, body.send_type, accessTarget(auth.account, body.send_type), 'MARK_TYPE_ACCESS', caller.ip);
    },

    async register(merchant: MerchantRow, body: RegisterBody, caller: Caller) {
      let managerId: string | null = null;
      if (body.invitation_code) {
        const manager = await deps.managers.findByCode(merchant.id, body.invitation_code);
        if (!manager) throw new AppError(ErrorCode.INVITATION_UNKNOWN);
        managerId = manager.id;
      }
      if (await findAccountByPhone(db, merchant.id, body.phone_prefix, body.phone)) throw new AppError(ErrorCode.PHONE_TAKEN);
      await codes.use({
        merchantId: merchant.id,
        target: phoneTarget(body.phone_prefix, body.phone),
        purpose: 'MARK_TYPE_REGISTER',
        code: body.captcha,
      });
      const passwordHash = await hashPassword(body.password);
      const opened = await db.transaction(async (tx) => {
        const account = await insertAccount(tx, {
          merchantId: merchant.id,
          phonePrefix: body.phone_prefix,
          phone: body.phone,
          passwordHash,
          managerId,
        });
        if (!account) return null;
        return sessions.open(tx, { merchantId: merchant.id, accountId: account.id, stage: 'BIND_EMAIL', userAgent: caller.userAgent, ip: caller.ip });
      });
      if (!opened) throw new AppError(ErrorCode.PHONE_TAKEN);
      return { token: opened.token };
    },

    async login(merchant: MerchantRow, body: LoginBody, caller: Caller) {
      const account = body.phone_info
        ? await findAccountByPhone(db, merchant.id, body.phone_info.phone_prefix, body.phone_info.phone)
        : await findAccountByEmail(db, merchant.id, body.email ?? '');
      const now = clock.now();
      if (!account) {
        // no account: the same answers as a wrong password, lock and all, and the time of one checked
        const identifier = body.phone_info ? phoneTarget(body.phone_info.phone_prefix, body.phone_info.phone) : emailTarget(body.email ?? '');
        const identifierHash = keyedHash(deps.codeHashKey(), `sign-in:${identifier}`);
        const lockedUntil = await findUnknownLock(db, merchant.id, identifierHash);
        if (lockedUntil && lockedUntil.getTime() > now.getTime()) throw lockedError(lockedUntil, now);
        await pruneUnknownSignIns(db, merchant.id, new Date(now.getTime() - loginPolicy.windowMs));
        const claimed = await claimUnknownTry(db, merchant.id, identifierHash, now, loginPolicy.windowMs, loginPolicy.maxFailures);
        if (!claimed) throw lockedError((await findUnknownLock(db, merchant.id, identifierHash)) ?? new Date(now.getTime() + loginPolicy.windowMs), now);
        await burnPasswordTime(body.password);
        throw wrongPassword(claimed, now);
      }
      const method: LoginMethod = body.phone_info ? 'PASSWORD_PHONE' : 'PASSWORD_EMAIL';
      if (account.lockedUntil && account.lockedUntil.getTime() > now.getTime()) {
        await attempt(db, merchant.id, account.id, method, 'LOCKED', caller);
        throw lockedError(account.lockedUntil, now);
      }
      // the try is counted before the password is checked, so parallel tries cannot check more than the policy allows
      const claimed = await claimPasswordTry(db, account.id, now, loginPolicy.windowMs, loginPolicy.maxFailures);
      if (!claimed) {
        await attempt(db, merchant.id, account.id, method, 'LOCKED', caller);
        throw lockedError((await findAccountLock(db, account.id)) ?? new Date(now.getTime() + loginPolicy.windowMs), now);
      }
      if (!(await verifyPassword(account.passwordHash, body.password))) {
        await attempt(db, merchant.id, account.id, method, 'WRONG_PASSWORD', caller);
        throw wrongPassword(claimed, now);
      }
      if (account.status !== 'ACTIVE') {
        await attempt(db, merchant.id, account.id, method, 'DISABLED', caller);
        throw new AppError(ErrorCode.ACCOUNT_DISABLED);
      }
      const trusted = caller.deviceSecret ? await findTrustedDevice(db, account.id, sha256(caller.deviceSecret), now) : undefined;
      const check = !trusted;
      const stage = check ? 'VERIFY' : account.email ? 'FULL' : 'BIND_EMAIL';
      const opened = await db.transaction(async (tx) => {
        // the right password: the try counted before the check is no failure
        await clearFailedLogins(tx, account.id);
        if (trusted) await touchTrustedDevice(tx, trusted.id, now, caller.ip);
        await attempt(tx, merchant.id, account.id, method, check ? 'VERIFICATION_REQUIRED' : 'SUCCESS', caller);
        return sessions.open(tx, {
          merchantId: merchant.id,
          accountId: account.id,
          stage,
          verifyChannel: body.phone_info ? 'SEND_TYPE_PHONE' : 'SEND_TYPE_EMAIL',
          userAgent: caller.userAgent,
          ip: caller.ip,
        });
      });
      return { token: opened.token, email: account.email, check };
    },

    /** POST /account/login/code/check: the second verification; answers the full session's token. */
    async checkAccessCode(merchant: MerchantRow, auth: Authenticated, body: z.infer<typeof codeCheckBody>, caller: Caller) {
      const own = accessTarget(auth.account, body.send_type);
      const method: LoginMethod = body.send_type === 'SEND_TYPE_EMAIL' ? 'VERIFY_EMAIL' : 'VERIFY_PHONE';
      try {
        await codes.use({ merchantId: merchant.id, target: own.target, purpose: 'MARK_TYPE_ACCESS', code: body.captcha });
      } catch (error) {
        if (error instanceof AppError) {
          const expired = error.code === ErrorCode.CODE_EXPIRED || error.code === ErrorCode.CODE_NOT_SENT;
          await attempt(db, merchant.id, auth.account.id, method, expired ? 'CODE_EXPIRED' : 'WRONG_CODE', caller);
        }
        throw error;
      }
      const now = clock.now();
      const deviceSecret = body.thirty_day ? randomToken() : undefined;
      const opened = await db.transaction(async (tx) => {
        if (deviceSecret) {
          await insertTrustedDevice(tx, {
            merchantId: merchant.id,
            accountId: auth.account.id,
            secretHash: sha256(deviceSecret),
            label: caller.userAgent.slice(0, 300),
            ip: caller.ip,
            createdAt: now,
            lastUsedAt: now,
            expiresAt: new Date(now.getTime() + DEVICE_TRUST_MS),
          });
        }
        await attempt(tx, merchant.id, auth.account.id, method, 'SUCCESS', caller);
        return sessions.promote(tx, auth.session, auth.account.email ? 'FULL' : 'BIND_EMAIL');
      });
      return { token: opened.token, email: auth.account.email, deviceSecret };
    },

    async bindEmail(merchant: MerchantRow, auth: Authenticated, body: z.infer<typeof bindEmailBody>) {
      if (auth.account.email) throw new AppError(ErrorCode.EMAIL_ALREADY_BOUND);
      const owner = await findAccountByEmail(db, merchant.id, body.email);
      if (owner && owner.id !== auth.account.id) throw new AppError(ErrorCode.EMAIL_TAKEN);
      await codes.use({ merchantId: merchant.id, target: emailTarget(body.email), purpose: 'MARK_TYPE_BIND_EMAIL', code: body.captcha });
      try {
        const opened = await db.transaction(async (tx) => {
          if (!(await setEmailIfNone(tx, auth.account.id, body.email))) return null;
          return sessions.promote(tx, auth.session, 'FULL');
        });
        if (!opened) throw new AppError(ErrorCode.EMAIL_ALREADY_BOUND);
        return { token: opened.token };
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError(ErrorCode.EMAIL_TAKEN);
        throw error;
      }
    },

    async logout(auth: Authenticated) {
      await db.transaction(async (tx) => {
        await sessions.end(tx, auth.session, 'logout');
      });
    },

    /** POST /account/forget-password/code: a code by SMS, or a reset link by e-mail. */
    async forgetCode(merchant: MerchantRow, body: z.infer<typeof forgetCodeBody>, caller: Caller) {
      if (body.phone_info) {
        if (body.type !== 'FORGET_PASSWORD') throw new AppError(ErrorCode.VALIDATION, { message: '交易密码仅支持通过邮箱重置' });
        const { phone, phone_prefix } = body.phone_info;
        if (!(await findAccountByPhone(db, merchant.id, phone_prefix, phone))) {
          await codes.countLookup({ merchantId: merchant.id, ip: caller.ip });
          throw new AppError(ErrorCode.PHONE_NOT_REGISTERED);
        }
        return sendTo(merchant, 'SEND_TYPE_PHONE', { phone, prefix: phone_prefix }, 'FORGET_PASSWORD', caller.ip);
      }
      const email = (body.email ?? '').toLowerCase();
      if (!(await findAccountByEmail(db, merchant.id, email))) {
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
      const account = await findAccountByPhone(db, merchant.id, phone_prefix, phone);
      if (!account) throw new AppError(ErrorCode.PHONE_NOT_REGISTERED);
      await codes.use({ merchantId: merchant.id, target: phoneTarget(phone_prefix, phone), purpose: 'FORGET_PASSWORD', code: body.captcha });
      const ticket = randomToken();
      const now = clock.now();
      await insertResetTicket(db, {
        merchantId: merchant.id,
        accountId: account.id,
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
        const account = await findAccountByPhone(db, merchant.id, phone_prefix, phone);
        if (!account) throw new AppError(ErrorCode.RESET_TICKET_INVALID);
        const mail = await db.transaction(async (tx) => {
          if (!(await useResetTicket(tx, merchant.id, account.id, ticketHash(body.ticket ?? ''), now))) return null;
          await setPassword(tx, account.id, passwordHash);
          await sessions.endAll(tx, account.id, 'password-reset');
          return tell(tx, merchant, account.id, 'LOGIN_PASSWORD_RESET_BY_PHONE', [account.email], caller);
        });
        if (!mail) throw new AppError(ErrorCode.RESET_TICKET_INVALID);
        await mail();
        return;
      }
      const email = (body.email ?? '').toLowerCase();
      const account = await findAccountByEmail(db, merchant.id, email);
      if (!account) throw new AppError(ErrorCode.EMAIL_NOT_REGISTERED);
      await codes.use({ merchantId: merchant.id, target: emailTarget(email), purpose: 'FORGET_PASSWORD', code: body.captcha ?? '' });
      const mail = await db.transaction(async (tx) => {
        await setPassword(tx, account.id, passwordHash);
        await sessions.endAll(tx, account.id, 'password-reset');
        return tell(tx, merchant, account.id, 'LOGIN_PASSWORD_RESET_BY_EMAIL', [account.email], caller);
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
      const account = await findAccountByEmail(db, merchant.id, body.email);
      if (!account) throw new AppError(ErrorCode.EMAIL_NOT_REGISTERED);
      await codes.use({ merchantId: merchant.id, target: emailTarget(body.email), purpose: 'FORGET_TRX_PASSWORD', code: body.captcha });
      const hash = await hashPassword(body.trx_password);
      const mail = await db.transaction(async (tx) => {
        await setTrxPassword(tx, account.id, hash);
        return tell(tx, merchant, account.id, 'TRX_PASSWORD_RESET', [account.email], caller);
      });
      await mail();
    },
  };
}
export type AccountService = ReturnType<typeof createAccountService>;

export type { AccountRow };
