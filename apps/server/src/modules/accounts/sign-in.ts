import type { z } from 'zod';
import type { bindEmailBody, codeCheckBody, LoginBody, RegisterBody } from '@portal/contract/account';
import type { LoginMethod, LoginResult } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import { TeamErrorCode } from '@portal/contract/team-errors';
import type { Db, Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { burnPasswordTime, hashPassword, keyedHash, randomToken, sha256, verifyPassword } from '../../lib/crypto.ts';
import { isUniqueViolation } from '../../lib/refused.ts';
import { type CodeService, emailTarget, phoneTarget } from '../codes/service.ts';
import type { ManagerService } from '../managers/service.ts';
import type { MerchantRow } from '../merchants/service.ts';
import type { Authenticated, SessionService } from '../sessions/service.ts';
import type { Caller } from '../../http/caller.ts';
import { accessTarget } from './code-delivery.ts';
import type { InvitationCalls } from './invitation-calls.ts';
import { lockedError, loginPolicy, wrongPasswordError } from './password-policy.ts';
import {
  claimPasswordTry,
  claimUnknownTry,
  clearFailedLogins,
  findMemberByEmail,
  findMemberByPhone,
  findMemberLock,
  findTrustedDevice,
  findUnknownLock,
  insertAccountWithOwner,
  insertInvitedMember,
  insertTrustedDevice,
  pruneUnknownSignIns,
  recordLoginAttempt,
  setEmailIfNone,
  touchTrustedDevice,
} from './store.ts';

/** The signed-in member as a row of the account's team. */
const memberOf = (auth: Authenticated) => ({ id: auth.member.id, accountId: auth.account.id });

/** How long a device trusted by 30天内此设备免验证 skips the second verification. */
export const DEVICE_TRUST_MS = 30 * 24 * 60 * 60_000;

interface SignInDeps {
  db: Db;
  clock: Clock;
  codes: CodeService;
  sessions: SessionService;
  managers: Pick<ManagerService, 'findByCode'>;
  invitations: InvitationCalls;
  /** the key codes and identifiers are hashed with (CODE_HASH_KEY) */
  codeHashKey: () => string;
}

/**
 * Sign-up, sign-in with its second verification (or a trusted device), binding the e-mail a session
 * waits for, and logout. Every session is opened here or by the recovery's reset.
 */
export function createSignInPart({ db, clock, codes, sessions, managers, invitations, codeHashKey }: SignInDeps) {
  /**
   * Records a sign-in attempt of a known account for its sign-in history (an unknown account's are
   * not kept), inside the caller's transaction when it has one.
   */
  const attempt = (tx: Tx, merchantId: string, member: { id: string; accountId: string }, method: LoginMethod, result: LoginResult, caller: Caller) =>
    recordLoginAttempt(tx, {
      merchantId,
      accountId: member.accountId,
      memberId: member.id,
      at: clock.now(),
      ip: caller.ip,
      userAgent: caller.userAgent.slice(0, 300),
      method,
      result,
    });

  /** No account: the same answers as a wrong password, lock and all, and the time of one checked. */
  async function refuseUnknown(merchant: MerchantRow, body: LoginBody, now: Date): Promise<never> {
    const identifier = body.phone_info ? phoneTarget(body.phone_info.phone_prefix, body.phone_info.phone) : emailTarget(body.email ?? '');
    const identifierHash = keyedHash(codeHashKey(), `sign-in:${identifier}`);
    const lockedUntil = await findUnknownLock(db, merchant.id, identifierHash);
    if (lockedUntil && lockedUntil.getTime() > now.getTime()) throw lockedError(lockedUntil, now);
    await pruneUnknownSignIns(db, merchant.id, new Date(now.getTime() - loginPolicy.windowMs));
    const claimed = await claimUnknownTry(db, merchant.id, identifierHash, now, loginPolicy.windowMs, loginPolicy.maxFailures);
    if (!claimed) throw lockedError((await findUnknownLock(db, merchant.id, identifierHash)) ?? new Date(now.getTime() + loginPolicy.windowMs), now);
    await burnPasswordTime(body.password);
    throw wrongPasswordError(claimed, now);
  }

  /**
   * Sign-up by a team's invitation: the new member joins the account that invited them, in the role
   * and with the budget the invitation gives, and the invitation is used up; no account is made.
   */
  async function joinByInvitation(merchant: MerchantRow, body: RegisterBody, token: string, caller: Caller) {
    const invitation = await invitations.forSignUp(merchant.id, token);
    if (invitation.channel === 'SMS' && (invitation.phonePrefix !== body.phone_prefix || invitation.phone !== body.phone)) {
      throw new AppError(TeamErrorCode.INVITATION_INVALID, { message: '邀请链接无效：注册手机号须为接收邀请短信的手机号' });
    }
    if (await findMemberByPhone(db, merchant.id, body.phone_prefix, body.phone)) throw new AppError(TeamErrorCode.ALREADY_IN_TEAM);
    if (invitation.email && (await findMemberByEmail(db, merchant.id, invitation.email))) throw new AppError(TeamErrorCode.ALREADY_IN_TEAM);
    await codes.use({ merchantId: merchant.id, target: phoneTarget(body.phone_prefix, body.phone), purpose: 'MARK_TYPE_REGISTER', code: body.captcha });
    const passwordHash = await hashPassword(body.password);
    const opened = await db.transaction(async (tx) => {
      const member = await insertInvitedMember(tx, {
        merchantId: merchant.id,
        accountId: invitation.accountId,
        phonePrefix: body.phone_prefix,
        phone: body.phone,
        // the invitation's link reached that address: it is the member's e-mail
        email: invitation.email,
        passwordHash,
        role: invitation.role,
        monthlyBudget: invitation.monthlyBudget,
        invitedBy: invitation.invitedBy,
      });
      if (!member) throw new AppError(TeamErrorCode.ALREADY_IN_TEAM);
      await invitations.accept(tx, invitation, member.id);
      const stage = member.email ? 'FULL' : 'BIND_EMAIL';
      return sessions.open(tx, { merchantId: merchant.id, accountId: member.accountId, memberId: member.id, stage, userAgent: caller.userAgent, ip: caller.ip });
    });
    return { token: opened.token, signed_in: opened.session.stage === 'FULL' };
  }

  async function register(merchant: MerchantRow, body: RegisterBody, caller: Caller) {
    if (body.invitation) return joinByInvitation(merchant, body, body.invitation, caller);
    let managerId: string | null = null;
    if (body.invitation_code) {
      const manager = await managers.findByCode(merchant.id, body.invitation_code);
      if (!manager) throw new AppError(ErrorCode.INVITATION_UNKNOWN);
      managerId = manager.id;
    }
    if (await findMemberByPhone(db, merchant.id, body.phone_prefix, body.phone)) throw new AppError(ErrorCode.PHONE_TAKEN);
    await codes.use({ merchantId: merchant.id, target: phoneTarget(body.phone_prefix, body.phone), purpose: 'MARK_TYPE_REGISTER', code: body.captcha });
    const passwordHash = await hashPassword(body.password);
    const opened = await db.transaction(async (tx) => {
      const owner = await insertAccountWithOwner(tx, { merchantId: merchant.id, phonePrefix: body.phone_prefix, phone: body.phone, passwordHash, managerId });
      if (!owner) return null;
      return sessions.open(tx, { merchantId: merchant.id, accountId: owner.accountId, memberId: owner.id, stage: 'BIND_EMAIL', userAgent: caller.userAgent, ip: caller.ip });
    });
    if (!opened) throw new AppError(ErrorCode.PHONE_TAKEN);
    return { token: opened.token, signed_in: false };
  }

  async function login(merchant: MerchantRow, body: LoginBody, caller: Caller) {
    const member = body.phone_info
      ? await findMemberByPhone(db, merchant.id, body.phone_info.phone_prefix, body.phone_info.phone)
      : await findMemberByEmail(db, merchant.id, body.email ?? '');
    const now = clock.now();
    if (!member) return refuseUnknown(merchant, body, now);
    const method: LoginMethod = body.phone_info ? 'PASSWORD_PHONE' : 'PASSWORD_EMAIL';
    if (member.lockedUntil && member.lockedUntil.getTime() > now.getTime()) {
      await attempt(db, merchant.id, member, method, 'LOCKED', caller);
      throw lockedError(member.lockedUntil, now);
    }
    // the try is counted before the password is checked, so parallel tries cannot check more than the policy allows
    const claimed = await claimPasswordTry(db, member.id, now, loginPolicy.windowMs, loginPolicy.maxFailures);
    if (!claimed) {
      await attempt(db, merchant.id, member, method, 'LOCKED', caller);
      throw lockedError((await findMemberLock(db, member.id)) ?? new Date(now.getTime() + loginPolicy.windowMs), now);
    }
    if (!(await verifyPassword(member.passwordHash, body.password))) {
      await attempt(db, merchant.id, member, method, 'WRONG_PASSWORD', caller);
      throw wrongPasswordError(claimed, now);
    }
    if (member.accountStatus !== 'ACTIVE') {
      await attempt(db, merchant.id, member, method, 'DISABLED', caller);
      throw new AppError(ErrorCode.ACCOUNT_DISABLED);
    }
    if (member.status !== 'ACTIVE') {
      await attempt(db, merchant.id, member, method, 'DISABLED', caller);
      throw new AppError(TeamErrorCode.MEMBER_SUSPENDED);
    }
    const trusted = caller.deviceSecret ? await findTrustedDevice(db, member.id, sha256(caller.deviceSecret), now) : undefined;
    const check = !trusted;
    const stage = check ? 'VERIFY' : member.email ? 'FULL' : 'BIND_EMAIL';
    const opened = await db.transaction(async (tx) => {
      // the right password: the try counted before the check is no failure
      await clearFailedLogins(tx, member.id);
      if (trusted) await touchTrustedDevice(tx, trusted.id, now, caller.ip);
      await attempt(tx, merchant.id, member, method, check ? 'VERIFICATION_REQUIRED' : 'SUCCESS', caller);
      const verifyChannel = body.phone_info ? 'SEND_TYPE_PHONE' : 'SEND_TYPE_EMAIL';
      return sessions.open(tx, { merchantId: merchant.id, accountId: member.accountId, memberId: member.id, stage, verifyChannel, userAgent: caller.userAgent, ip: caller.ip });
    });
    return { token: opened.token, email: member.email, check };
  }

  /** POST /account/login/code/check: the second verification; answers the full session's token. */
  async function checkAccessCode(merchant: MerchantRow, auth: Authenticated, body: z.infer<typeof codeCheckBody>, caller: Caller) {
    const own = accessTarget(auth.member, body.send_type);
    const method: LoginMethod = body.send_type === 'SEND_TYPE_EMAIL' ? 'VERIFY_EMAIL' : 'VERIFY_PHONE';
    try {
      await codes.use({ merchantId: merchant.id, target: own.target, purpose: 'MARK_TYPE_ACCESS', code: body.captcha });
    } catch (error) {
      if (error instanceof AppError) {
        const expired = error.code === ErrorCode.CODE_EXPIRED || error.code === ErrorCode.CODE_NOT_SENT;
        await attempt(db, merchant.id, memberOf(auth), method, expired ? 'CODE_EXPIRED' : 'WRONG_CODE', caller);
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
          memberId: auth.member.id,
          secretHash: sha256(deviceSecret),
          label: caller.userAgent.slice(0, 300),
          ip: caller.ip,
          createdAt: now,
          lastUsedAt: now,
          expiresAt: new Date(now.getTime() + DEVICE_TRUST_MS),
        });
      }
      await attempt(tx, merchant.id, memberOf(auth), method, 'SUCCESS', caller);
      return sessions.promote(tx, auth.session, auth.member.email ? 'FULL' : 'BIND_EMAIL');
    });
    return { token: opened.token, email: auth.member.email, deviceSecret };
  }

  async function bindEmail(merchant: MerchantRow, auth: Authenticated, body: z.infer<typeof bindEmailBody>) {
    if (auth.member.email) throw new AppError(ErrorCode.EMAIL_ALREADY_BOUND);
    const owner = await findMemberByEmail(db, merchant.id, body.email);
    if (owner && owner.id !== auth.member.id) throw new AppError(ErrorCode.EMAIL_TAKEN);
    await codes.use({ merchantId: merchant.id, target: emailTarget(body.email), purpose: 'MARK_TYPE_BIND_EMAIL', code: body.captcha });
    try {
      const opened = await db.transaction(async (tx) => {
        if (!(await setEmailIfNone(tx, auth.member.id, body.email))) return null;
        return sessions.promote(tx, auth.session, 'FULL');
      });
      if (!opened) throw new AppError(ErrorCode.EMAIL_ALREADY_BOUND);
      return { token: opened.token };
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(ErrorCode.EMAIL_TAKEN);
      throw error;
    }
  }

  async function logout(auth: Authenticated) {
    await db.transaction(async (tx) => {
      await sessions.end(tx, auth.session, 'logout');
    });
  }

  return { register, login, checkAccessCode, bindEmail, logout };
}
