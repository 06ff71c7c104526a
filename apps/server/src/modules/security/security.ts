import {
  type ChangeEmailBody,
  type ChangePasswordBody,
  type ChangePhoneBody,
  LOGIN_HISTORY_SIZE,
  type SendCodeAutoBody,
  type SendCodeBody,
} from '@portal/contract/account';
import type { CodePurpose, LoginMethod, LoginResult, SessionStage } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import { SecurityErrorCode } from '@portal/contract/security-errors';
import { securityCalls } from '@portal/contract/api/security';
import type { Db } from '../../db/engine.ts';
import { traceWithin } from '../../http/call-trace.ts';
import { AppError } from '../../http/errors.ts';
import { onField, refusedOn } from '../../http/field-refusal.ts';
import type { Clock } from '../../lib/clock.ts';
import { hashPassword, sha256 } from '../../lib/crypto.ts';
import { maskPhone } from '../../lib/mask.ts';
import { isUniqueViolation } from '../../lib/refused.ts';
import { deviceName } from '../../lib/user-agent.ts';
import { type CodeService, emailTarget, phoneTarget } from '../codes/service.ts';
import type { ManagerService } from '../managers/service.ts';
import type { MerchantRow } from '../merchants/service.ts';
import type { Authenticated, SessionService } from '../sessions/service.ts';
import type { Caller } from '../../http/caller.ts';
import type { AccountCredentials } from '../accounts/credentials-service.ts';
import type { TellSecurityChange } from './security-notice.ts';
import { countLiveTrustedDevices, listLoginAttempts, listTrustedDevices, revokeTrustedDevice } from './store.ts';

interface SecurityDeps {
  db: Db;
  clock: Clock;
  codes: CodeService;
  sessions: SessionService;
  managers: Pick<ManagerService, 'findById'>;
  /** tells the account of each change (the trade password's too) */
  tell: TellSecurityChange;
  /** the account's row, its login password and its addresses' codes, as the accounts module keeps them */
  credentials: AccountCredentials;
}

/** A change of the security centre needs the full session: not one still at its second verification or e-mail. */
function requireFull(auth: Authenticated) {
  const stage = auth.session.stage as SessionStage;
  if (stage === 'VERIFY') throw new AppError(ErrorCode.VERIFICATION_REQUIRED);
  if (stage === 'BIND_EMAIL') throw new AppError(ErrorCode.EMAIL_REQUIRED);
}

/**
 * The security centre of the signed-in account (/settings): its overview, the login password, the
 * e-mail and phone changes (a code to the old address and one to the new), trusted devices,
 * sessions and the sign-in history. Each change tells the account (station message and e-mail).
 */
export function createSecurityPart(deps: SecurityDeps) {
  const { db, clock, codes, sessions, tell, credentials } = deps;
  const { confirmLoginPassword } = credentials;

  /** Checks both codes of a change, then uses them: a wrong new code does not spend the old one. */
  async function useBothCodes(merchantId: string, purpose: CodePurpose, old: { target: string; code: string }, next: { target: string; code: string }) {
    const checks = [
      { ...old, field: 'old_captcha' },
      { ...next, field: 'captcha' },
    ];
    for (const check of checks) {
      try {
        await codes.peek({ merchantId, target: check.target, purpose, code: check.code });
      } catch (error) {
        throw onField(error, check.field);
      }
    }
    for (const check of checks) {
      try {
        await codes.use({ merchantId, target: check.target, purpose, code: check.code });
      } catch (error) {
        throw onField(error, check.field);
      }
    }
  }

  return {
    /** GET /account/security: what the security centre shows first. */
    async overview(auth: Authenticated) {
      const now = clock.now();
      const account = await credentials.findById(auth.member.id);
      if (!account) throw new AppError(ErrorCode.SESSION_UNKNOWN);
      const [manager, trusted, live, [last]] = await Promise.all([
        account.managerId ? deps.managers.findById(account.managerId) : undefined,
        countLiveTrustedDevices(db, account.id, now),
        sessions.live(account.id),
        listLoginAttempts(db, account.id, 1, 'SUCCESS'),
      ]);
      return {
        id: account.id,
        phone: maskPhone(account.phone),
        phone_prefix: account.phonePrefix,
        email: account.email,
        created_at: account.createdAt.toISOString(),
        manager: manager ? { name: manager.name, invitation_code: manager.invitationCode } : null,
        trx_password_set: account.trxPasswordHash !== null,
        trusted_devices: trusted,
        sessions: live.length,
        last_sign_in: last ? { at: last.at.toISOString(), ip: last.ip, device: deviceName(last.userAgent) } : null,
      };
    },

    /**
     * PUT /account/password: the old password, then the new one (spec §5, checked by the body's
     * schema). A wrong old password counts toward the sign-in lock, as a wrong sign-in does. Every
     * other session of the account ends; this one stays.
     */
    async changePassword(merchant: MerchantRow, auth: Authenticated, body: ChangePasswordBody, caller: Caller) {
      const account = await credentials.findById(auth.member.id);
      if (!account) throw new AppError(ErrorCode.SESSION_UNKNOWN);
      await confirmLoginPassword(account, body.old_password, { wrong: SecurityErrorCode.OLD_PASSWORD_WRONG, field: 'old_password' });
      if (body.password === body.old_password) throw refusedOn(SecurityErrorCode.PASSWORD_UNCHANGED, 'password');
      const passwordHash = await hashPassword(body.password);
      const { ended, mail } = await db.transaction(async (tx) => {
        await credentials.setPassword(tx, account.id, passwordHash);
        const count = await sessions.endAll(tx, account, 'password-changed', auth.session.id);
        await traceWithin(tx, securityCalls.changePassword, null);
        return { ended: count, mail: await tell(tx, merchant, { accountId: auth.account.id, memberId: auth.member.id }, 'LOGIN_PASSWORD', [account.email], caller) };
      });
      await mail();
      return { ended_sessions: ended };
    },

    /**
     * POST /account/send/code with MARK_TYPE_CHANGE_EMAIL or MARK_TYPE_CHANGE_PHONE: to the account's
     * own e-mail or phone, the old address's code; to any other, the new one's, when no other account
     * of the merchant has it.
     */
    async sendChangeCode(merchant: MerchantRow, body: SendCodeBody, caller: Caller, auth: Authenticated) {
      requireFull(auth);
      const account = auth.member;
      if (body.mark_type === 'MARK_TYPE_CHANGE_EMAIL') {
        if (body.send_type !== 'SEND_TYPE_EMAIL' || body.email === undefined) throw new AppError(ErrorCode.VALIDATION, { message: '请输入邮箱' });
        const email = body.email.toLowerCase();
        if (email !== account.email) {
          const owner = await credentials.findByEmail(merchant.id, email);
          if (owner && owner.id !== account.id) {
            await codes.countLookup({ merchantId: merchant.id, ip: caller.ip });
            throw refusedOn(ErrorCode.EMAIL_TAKEN, 'email');
          }
        }
        return credentials.sendCode(merchant, 'SEND_TYPE_EMAIL', { email }, 'MARK_TYPE_CHANGE_EMAIL', caller.ip);
      }
      if (body.send_type !== 'SEND_TYPE_PHONE' || !body.phone_info) throw new AppError(ErrorCode.VALIDATION, { message: '请输入正确手机号' });
      const { phone, phone_prefix: prefix } = body.phone_info;
      if (phone !== account.phone || prefix !== account.phonePrefix) {
        if (await credentials.findOtherByPhone(merchant.id, account.id, prefix, phone)) {
          await codes.countLookup({ merchantId: merchant.id, ip: caller.ip });
          throw refusedOn(SecurityErrorCode.PHONE_IN_USE, 'phone_info.phone');
        }
      }
      return credentials.sendCode(merchant, 'SEND_TYPE_PHONE', { phone, prefix }, 'MARK_TYPE_CHANGE_PHONE', caller.ip);
    },

    /**
     * POST /account/send/code-auto with MARK_TYPE_CHANGE_EMAIL (by e-mail) or MARK_TYPE_CHANGE_PHONE (by
     * phone): the old address's code, to the account's e-mail or phone as it is now, named by nobody.
     */
    async sendCurrentAddressCode(merchant: MerchantRow, auth: Authenticated, body: SendCodeAutoBody, caller: Caller) {
      requireFull(auth);
      const account = auth.member;
      if (body.mark_type === 'MARK_TYPE_CHANGE_EMAIL') {
        if (body.send_type !== 'SEND_TYPE_EMAIL') throw new AppError(ErrorCode.VALIDATION, { message: '更换邮箱的验证码仅发送至邮箱' });
        if (!account.email) throw new AppError(ErrorCode.NO_EMAIL_ON_ACCOUNT);
        return credentials.sendCode(merchant, 'SEND_TYPE_EMAIL', { email: account.email }, 'MARK_TYPE_CHANGE_EMAIL', caller.ip);
      }
      if (body.send_type !== 'SEND_TYPE_PHONE') throw new AppError(ErrorCode.VALIDATION, { message: '更换手机号的验证码仅发送至手机' });
      return credentials.sendCode(merchant, 'SEND_TYPE_PHONE', { phone: account.phone, prefix: account.phonePrefix }, 'MARK_TYPE_CHANGE_PHONE', caller.ip);
    },

    /** POST /account/email/change: the old address's code and the new one's; both addresses are told. */
    async changeEmail(merchant: MerchantRow, auth: Authenticated, body: ChangeEmailBody, caller: Caller) {
      const account = auth.member;
      const current = account.email ?? '';
      const email = body.email.toLowerCase();
      if (email === current) throw refusedOn(SecurityErrorCode.EMAIL_UNCHANGED, 'email');
      const owner = await credentials.findByEmail(merchant.id, email);
      if (owner && owner.id !== account.id) {
        // it tells whether an account has the address, as the code request does: counted the same
        await codes.countLookup({ merchantId: merchant.id, ip: caller.ip });
        throw refusedOn(ErrorCode.EMAIL_TAKEN, 'email');
      }
      await useBothCodes(
        merchant.id,
        'MARK_TYPE_CHANGE_EMAIL',
        { target: emailTarget(current), code: body.old_captcha },
        { target: emailTarget(email), code: body.captcha },
      );
      let mail: () => Promise<void>;
      try {
        mail = await db.transaction(async (tx) => {
          await credentials.setEmail(tx, account.id, email);
          await traceWithin(tx, securityCalls.changeEmail, null);
          return tell(tx, merchant, { accountId: auth.account.id, memberId: auth.member.id }, 'EMAIL', [current, email], caller);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw refusedOn(ErrorCode.EMAIL_TAKEN, 'email');
        throw error;
      }
      await mail();
      return { email };
    },

    /** POST /account/phone/change: the old phone's code and the new one's; the account's e-mail is told. */
    async changePhone(merchant: MerchantRow, auth: Authenticated, body: ChangePhoneBody, caller: Caller) {
      const account = auth.member;
      const { phone, phone_prefix: prefix } = body.phone_info;
      if (phone === account.phone && prefix === account.phonePrefix) throw refusedOn(SecurityErrorCode.PHONE_UNCHANGED, 'phone_info.phone');
      if (await credentials.findOtherByPhone(merchant.id, account.id, prefix, phone)) {
        await codes.countLookup({ merchantId: merchant.id, ip: caller.ip });
        throw refusedOn(SecurityErrorCode.PHONE_IN_USE, 'phone_info.phone');
      }
      await useBothCodes(
        merchant.id,
        'MARK_TYPE_CHANGE_PHONE',
        { target: phoneTarget(account.phonePrefix, account.phone), code: body.old_captcha },
        { target: phoneTarget(prefix, phone), code: body.captcha },
      );
      let mail: () => Promise<void>;
      try {
        mail = await db.transaction(async (tx) => {
          await credentials.setPhone(tx, account.id, prefix, phone);
          await traceWithin(tx, securityCalls.changePhone, null);
          return tell(tx, merchant, { accountId: auth.account.id, memberId: auth.member.id }, 'PHONE', [account.email], caller);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw refusedOn(SecurityErrorCode.PHONE_IN_USE, 'phone_info.phone');
        throw error;
      }
      await mail();
      return { phone: maskPhone(phone), phone_prefix: prefix };
    },

    /** GET /account/devices: the devices trusted by 30天内此设备免验证, this browser's marked. */
    async devices(auth: Authenticated, currentSecret: string | undefined) {
      const now = clock.now();
      const currentHash = currentSecret ? sha256(currentSecret) : '';
      const rows = await listTrustedDevices(db, auth.member.id, now);
      return rows.map((row) => ({
        id: row.id,
        label: row.label,
        device: deviceName(row.label),
        ip: row.ip,
        created_at: row.createdAt.toISOString(),
        last_used_at: row.lastUsedAt.toISOString(),
        expires_at: row.expiresAt.toISOString(),
        current: row.secretHash === currentHash,
      }));
    },

    /** DELETE /account/devices/{id}: that device asks for the second verification again at its next sign-in. */
    async revokeDevice(merchant: MerchantRow, auth: Authenticated, id: string, caller: Caller) {
      const mail = await db.transaction(async (tx) => {
        if (!(await revokeTrustedDevice(tx, auth.member.id, id, clock.now()))) return null;
        await traceWithin(tx, securityCalls.revokeDevice, null);
        return tell(tx, merchant, { accountId: auth.account.id, memberId: auth.member.id }, 'DEVICE_REVOKED', [auth.member.email], caller);
      });
      if (!mail) throw new AppError(ErrorCode.DEVICE_NOT_FOUND);
      await mail();
    },

    /** GET /account/sessions: the live sessions, the most recently active first; this one marked. */
    async sessionList(auth: Authenticated) {
      const rows = await sessions.live(auth.member.id);
      return rows.map((row) => ({
        id: row.id,
        device: deviceName(row.userAgent),
        ip: row.ip,
        created_at: row.createdAt.toISOString(),
        last_active_at: row.lastSeenAt.toISOString(),
        stage: row.stage as SessionStage,
        current: row.id === auth.session.id,
      }));
    },

    /**
     * DELETE /account/sessions/{id}: ends one session of the account; its open tabs log out at once.
     * Ending this very session is a logout, and tells nobody.
     */
    async endSession(merchant: MerchantRow, auth: Authenticated, id: string, caller: Caller) {
      const mail = await db.transaction(async (tx) => {
        if (!(await sessions.endOwn(tx, { id: auth.member.id, accountId: auth.member.id }, id, 'ended-by-owner'))) return null;
        await traceWithin(tx, securityCalls.endSession, null);
        if (id === auth.session.id) return async () => {};
        return tell(tx, merchant, { accountId: auth.account.id, memberId: auth.member.id }, 'SESSION_ENDED', [auth.member.email], caller);
      });
      if (!mail) throw new AppError(SecurityErrorCode.SESSION_NOT_FOUND);
      await mail();
    },

    /** DELETE /account/sessions?others=true: ends every session of the account but this one. */
    async endOtherSessions(merchant: MerchantRow, auth: Authenticated, caller: Caller) {
      const { ended, mail } = await db.transaction(async (tx) => {
        const count = await sessions.endAll(tx, { id: auth.member.id, accountId: auth.member.id }, 'ended-by-owner', auth.session.id);
        await traceWithin(tx, securityCalls.endOtherSessions, null);
        // nothing ended, nothing to tell
        if (count === 0) return { ended: 0, mail: async () => {} };
        return { ended: count, mail: await tell(tx, merchant, { accountId: auth.account.id, memberId: auth.member.id }, 'OTHER_SESSIONS_ENDED', [auth.member.email], caller) };
      });
      await mail();
      return { ended_sessions: ended };
    },

    /** The newest sign-in attempts of each of these members (the merchant's console), newest first. */
    async loginHistoryOf(memberIds: string[], limit: number) {
      const rows = (await Promise.all(memberIds.map((memberId) => listLoginAttempts(db, memberId, limit)))).flat();
      rows.sort((a, b) => b.at.getTime() - a.at.getTime());
      return rows.slice(0, limit).map((row) => ({
        id: row.id,
        member_id: row.memberId,
        at: row.at.toISOString(),
        ip: row.ip,
        device: deviceName(row.userAgent),
        method: row.method as LoginMethod,
        result: row.result as LoginResult,
      }));
    },

    /** GET /account/login-history: the newest sign-in attempts. */
    async loginHistory(auth: Authenticated) {
      const rows = await listLoginAttempts(db, auth.member.id, LOGIN_HISTORY_SIZE);
      return rows.map((row) => ({
        id: row.id,
        at: row.at.toISOString(),
        ip: row.ip,
        device: deviceName(row.userAgent),
        method: row.method as LoginMethod,
        result: row.result as LoginResult,
      }));
    },
  };
}

export type SecurityPart = ReturnType<typeof createSecurityPart>;
