import { randomBytes, randomInt } from 'node:crypto';
import { type ConsoleLoginBody, consolePolicy, normaliseRecoveryCode, OPERATOR_TOKEN_PREFIX, type OperatorStage, RECOVERY_CODE_PATTERN } from '@portal/contract/console';
import { ConsoleErrorCode } from '@portal/contract/console-errors';
import type { Db, Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { burnPasswordTime, keyedHash, sha256, verifyPassword } from '../../lib/crypto.ts';
import type { Sealer } from '../../lib/sealed.ts';
import { secondsLeft } from '../../lib/seconds-left.ts';
import { insertAudit } from './audit-store.ts';
import {
  claimTry,
  clearTries,
  findOperatorByEmail,
  insertSession,
  lockOperator,
  type OperatorRow,
  type OperatorSessionRow,
  replaceRecoveryCodes,
  revokeSession,
  takeTotpStep,
  updateOperator,
  useRecoveryCode,
} from './store.ts';
import { matchedTotpStep, newTotpSecret } from './totp.ts';

export interface ConsoleCaller {
  ip: string;
  userAgent: string;
}

/** The merchant a console request came to. */
export interface ConsoleMerchant {
  id: string;
  name: string;
}

const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function newRecoveryCode() {
  let code = '';
  for (let i = 0; i < 8; i += 1) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

export const lockedError = (until: Date, now: Date) => {
  const seconds = secondsLeft(until, now);
  return new AppError(ConsoleErrorCode.LOCKED, { params: { minutes: Math.ceil(seconds / 60) }, data: { retry_after: seconds } });
};

/** A wrong password or code, counted: the lock once this try set it, a warning of it from the third. */
function wrongAnswer(code: number, claimed: { failures: number; lockedUntil: Date | null }, now: Date) {
  if (claimed.lockedUntil) return lockedError(claimed.lockedUntil, now);
  if (claimed.failures < consolePolicy.warnFromFailure) return new AppError(code);
  const remaining = consolePolicy.maxFailures - claimed.failures;
  return new AppError(code, { variant: 'lockWarning', params: { remaining, minutes: consolePolicy.windowMs / 60_000 }, data: { remaining } });
}

/** An operator's sign-in: the password, then the authenticator (enrolled at the first sign-in) or a recovery code. */
export function createOperatorSignIn({ db, clock, sealer, codeHashKey }: { db: Db; clock: Clock; sealer: Sealer; codeHashKey: () => string }) {
  const recoveryHash = (code: string) => keyedHash(codeHashKey(), `operator-recovery:${normaliseRecoveryCode(code)}`);

  async function audit(tx: Tx, merchantId: string, operator: Pick<OperatorRow, 'id' | 'email'> | null, action: string, caller: ConsoleCaller, extra: { target?: string; after?: Record<string, unknown> } = {}) {
    await insertAudit(tx, {
      merchantId,
      channel: 'CONSOLE',
      operatorId: operator?.id ?? null,
      actor: operator?.email ?? '—',
      action,
      target: extra.target ?? null,
      after: extra.after ?? null,
      ip: caller.ip,
      at: clock.now(),
    });
  }

  async function openSession(tx: Tx, operator: OperatorRow, stage: OperatorStage, caller: ConsoleCaller) {
    const token = `${OPERATOR_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const now = clock.now();
    await insertSession(tx, {
      merchantId: operator.merchantId,
      operatorId: operator.id,
      tokenHash: sha256(token),
      stage,
      ip: caller.ip,
      userAgent: caller.userAgent.slice(0, 300),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + consolePolicy.sessionMs),
    });
    return token;
  }

  /** Counts the try first (a locked operator gets none); a failure is written and thrown outside any transaction. */
  async function claim(operator: OperatorRow, merchant: ConsoleMerchant, caller: ConsoleCaller, now: Date) {
    const claimed = await claimTry(db, operator.id, now, consolePolicy.windowMs, consolePolicy.maxFailures);
    if (claimed) return claimed;
    await audit(db, merchant.id, operator, 'SIGN_IN_FAILED', caller, { after: { reason: 'LOCKED' } });
    throw lockedError(operator.lockedUntil ?? new Date(now.getTime() + consolePolicy.windowMs), now);
  }

  /** Checks a code against the operator's enrolled secret (or a recovery code); takes it once. Inside the caller's transaction. */
  async function takeCode(tx: Tx, operator: OperatorRow, secret: string, code: string, now: Date): Promise<'TOTP' | 'RECOVERY' | null> {
    if (RECOVERY_CODE_PATTERN.test(code)) return (await useRecoveryCode(tx, operator.id, recoveryHash(code), now)) ? 'RECOVERY' : null;
    const step = await matchedTotpStep(secret, code, now);
    if (step === null) return null;
    return (await takeTotpStep(tx, operator.id, step)) ? 'TOTP' : null;
  }

  return {
    /** POST /auth/login: the password (and the code, when given and enrolled). */
    async login(merchant: ConsoleMerchant, body: ConsoleLoginBody, caller: ConsoleCaller) {
      const operator = await findOperatorByEmail(db, merchant.id, body.email);
      const now = clock.now();
      if (!operator) {
        await burnPasswordTime(body.password);
        await audit(db, merchant.id, null, 'SIGN_IN_FAILED', caller, { target: body.email, after: { reason: 'UNKNOWN_EMAIL' } });
        throw new AppError(ConsoleErrorCode.BAD_CREDENTIALS);
      }
      if (operator.lockedUntil && operator.lockedUntil.getTime() > now.getTime()) {
        await audit(db, merchant.id, operator, 'SIGN_IN_FAILED', caller, { after: { reason: 'LOCKED' } });
        throw lockedError(operator.lockedUntil, now);
      }
      const claimed = await claim(operator, merchant, caller, now);
      if (!(await verifyPassword(operator.passwordHash, body.password))) {
        await audit(db, merchant.id, operator, 'SIGN_IN_FAILED', caller, { after: { reason: 'WRONG_PASSWORD' } });
        throw wrongAnswer(ConsoleErrorCode.BAD_CREDENTIALS, claimed, now);
      }
      if (operator.status !== 'ACTIVE') {
        await audit(db, merchant.id, operator, 'SIGN_IN_FAILED', caller, { after: { reason: 'DISABLED' } });
        throw new AppError(ConsoleErrorCode.OPERATOR_DISABLED);
      }
      if (!operator.totpSecret) {
        // the first sign-in: a new secret to enrol, shown once; the token can do nothing but enrol it
        const enrolment = newTotpSecret(merchant.name, operator.email);
        const token = await db.transaction(async (tx) => {
          await clearTries(tx, operator.id);
          await updateOperator(tx, operator.id, { totpPendingSecret: sealer.seal(enrolment.secret) });
          await audit(tx, merchant.id, operator, 'SIGN_IN_PASSWORD', caller, { after: { next: 'ENROL' } });
          return openSession(tx, operator, 'ENROL', caller);
        });
        return { token, totp_required: true, totp_enrolment: { secret: enrolment.secret, otpauth_url: enrolment.otpauthUrl } };
      }
      if (body.totp === undefined) {
        const token = await db.transaction(async (tx) => {
          await clearTries(tx, operator.id);
          await audit(tx, merchant.id, operator, 'SIGN_IN_PASSWORD', caller, { after: { next: 'VERIFY' } });
          return openSession(tx, operator, 'VERIFY', caller);
        });
        return { token, totp_required: true };
      }
      const code = body.totp;
      const secret = sealer.open(operator.totpSecret);
      const token = await db.transaction(async (tx) => {
        const held = await lockOperator(tx, operator.id);
        if (!held || !(await takeCode(tx, held, secret, code, now))) return null;
        await clearTries(tx, operator.id);
        await updateOperator(tx, operator.id, { lastSignInAt: now });
        await audit(tx, merchant.id, operator, 'SIGN_IN', caller, { after: { with: 'TOTP' } });
        return openSession(tx, operator, 'FULL', caller);
      });
      if (!token) {
        // the password was right, the code was not: the try counted above stays a failure
        await audit(db, merchant.id, operator, 'SIGN_IN_FAILED', caller, { after: { reason: 'WRONG_CODE' } });
        throw wrongAnswer(ConsoleErrorCode.TOTP_WRONG, claimed, now);
      }
      return { token, totp_required: false };
    },

    /** POST /auth/totp: enrols the authenticator (answering the recovery codes once) or checks a code; a FULL token replaces this one. */
    async giveCode(merchant: ConsoleMerchant, signedIn: { operator: OperatorRow; session: OperatorSessionRow }, code: string, caller: ConsoleCaller) {
      const now = clock.now();
      const { operator, session } = signedIn;
      if (operator.lockedUntil && operator.lockedUntil.getTime() > now.getTime()) throw lockedError(operator.lockedUntil, now);
      const claimed = await claim(operator, merchant, caller, now);
      const enrolling = session.stage === 'ENROL';
      const sealedSecret = enrolling ? operator.totpPendingSecret : operator.totpSecret;
      if (!sealedSecret || (enrolling && RECOVERY_CODE_PATTERN.test(code))) {
        await audit(db, merchant.id, operator, 'SIGN_IN_FAILED', caller, { after: { reason: 'WRONG_CODE' } });
        throw wrongAnswer(ConsoleErrorCode.TOTP_WRONG, claimed, now);
      }
      const secret = sealer.open(sealedSecret);
      const recoveryCodes = enrolling ? Array.from({ length: consolePolicy.recoveryCodeCount }, newRecoveryCode) : undefined;
      const answer = await db.transaction(async (tx) => {
        const held = await lockOperator(tx, operator.id);
        if (!held) return null;
        const used = await takeCode(tx, held, secret, code, now);
        if (!used) return null;
        await clearTries(tx, operator.id);
        if (!(await revokeSession(tx, session.id, now))) return null;
        if (recoveryCodes) {
          await updateOperator(tx, operator.id, { totpSecret: sealedSecret, totpPendingSecret: null, totpEnrolledAt: now, lastSignInAt: now });
          await replaceRecoveryCodes(tx, operator.id, recoveryCodes.map(recoveryHash));
          await audit(tx, merchant.id, operator, 'TOTP_ENROLLED', caller, { after: { recovery_codes: recoveryCodes.length } });
        } else {
          await updateOperator(tx, operator.id, { lastSignInAt: now });
        }
        await audit(tx, merchant.id, operator, used === 'RECOVERY' ? 'RECOVERY_CODE_USED' : 'SIGN_IN', caller, { after: { with: used } });
        return { token: await openSession(tx, operator, 'FULL', caller) };
      });
      if (!answer) {
        await audit(db, merchant.id, operator, 'SIGN_IN_FAILED', caller, { after: { reason: 'WRONG_CODE' } });
        throw wrongAnswer(ConsoleErrorCode.TOTP_WRONG, claimed, now);
      }
      return recoveryCodes ? { token: answer.token, recovery_codes: recoveryCodes } : { token: answer.token };
    },

    /**
     * Runs `work` only with the signed-in operator's code given again (money, a freeze): the try is
     * counted first, as a sign-in's is (the fifth wrong one in 15 minutes locks the operator's sign-in
     * and actions); the code is taken once, inside the transaction `work` runs in, so an action that is
     * undone leaves its code unused and one code never confirms two actions. A wrong code runs nothing,
     * is written in the audit log and answers 验证码错误或已使用.
     */
    async withActionCode<T>(merchant: ConsoleMerchant, operator: OperatorRow, code: string, caller: ConsoleCaller, work: (tx: Tx) => Promise<T>): Promise<T> {
      const now = clock.now();
      if (operator.lockedUntil && operator.lockedUntil.getTime() > now.getTime()) throw lockedError(operator.lockedUntil, now);
      const claimed = await claim(operator, merchant, caller, now);
      const sealedSecret = operator.totpSecret;
      const outcome = await db.transaction(async (tx) => {
        const held = await lockOperator(tx, operator.id);
        const used = held && sealedSecret ? await takeCode(tx, held, sealer.open(sealedSecret), code.trim(), now) : null;
        if (!used) return { done: false as const };
        await clearTries(tx, operator.id);
        return { done: true as const, value: await work(tx) };
      });
      if (!outcome.done) {
        await audit(db, merchant.id, operator, 'ACTION_CODE_FAILED', caller, { after: { reason: 'WRONG_CODE' } });
        throw wrongAnswer(ConsoleErrorCode.TOTP_WRONG, claimed, now);
      }
      return outcome.value;
    },

    /** POST /auth/logout. */
    async logout(signedIn: { operator: OperatorRow; session: OperatorSessionRow }, caller: ConsoleCaller) {
      await db.transaction(async (tx) => {
        await revokeSession(tx, signedIn.session.id, clock.now());
        await audit(tx, signedIn.operator.merchantId, signedIn.operator, 'SIGN_OUT', caller);
      });
    },
  };
}
