import { randomUUID } from 'node:crypto';
import type { CodePurpose } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import { limits } from '@portal/contract/rules';
import type { Db, Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { keyedHash, randomCode, sameText } from '../../lib/crypto.ts';
import {
  codesFromIpSince,
  codesToTargetSince,
  consumeCode,
  countTry,
  deleteCode,
  insertCode,
  lockTarget,
  newestCode,
  supersedeCodes,
} from './store.ts';

/** product.md §2: the one-time code policy. */
export const codePolicy = {
  ttlMs: limits.codeValidSeconds * 1000,
  resendMs: limits.codeResendSeconds * 1000,
  maxTries: 5,
  perTargetPerDay: 10,
  perIpPerWindow: 30,
  ipWindowMs: 5 * 60_000,
  dayMs: 24 * 60 * 60_000,
} as const;


export const phoneTarget = (prefix: string, phone: string) => `phone:${prefix}:${phone}`;
export const emailTarget = (email: string) => `email:${email.toLowerCase()}`;

/** the target and purpose of a row that records an account lookup, not a code */
const LOOKUP_TARGET = 'LOOKUP';

const secondsUntil = (from: Date, to: number) => Math.max(1, Math.ceil((to - from.getTime()) / 1000));

export interface CodeRequest {
  merchantId: string;
  target: string;
  purpose: CodePurpose;
  ip: string;
}

interface CodeCheck {
  merchantId: string;
  target: string;
  purpose: CodePurpose;
  code: string;
}

/**
 * One-time codes. A code is stored as a keyed hash (HMAC with a server secret, `hashKey`) of its row
 * and digits: a reader of the table alone cannot try the million codes against it.
 */
export function createCodeService({ db, clock, hashKey }: { db: Db; clock: Clock; hashKey: () => string }) {
  const hashCode = (id: string, code: string) => keyedHash(hashKey(), `${id}:${code}`);

  /** The refusal of an IP address that asked for codes (or about accounts) too often of late, if it did. */
  async function ipCapRefusal(tx: Tx, ip: string, now: Date) {
    const fromIp = await codesFromIpSince(tx, ip, new Date(now.getTime() - codePolicy.ipWindowMs));
    if (fromIp.n < codePolicy.perIpPerWindow) return null;
    const seconds = secondsUntil(now, (fromIp.oldest ?? now).getTime() + codePolicy.ipWindowMs);
    return new AppError(ErrorCode.CODE_IP_LIMIT, { params: { seconds }, data: { retry_after: seconds } });
  }

  /**
   * Before a code request is answered with whether an account exists (a phone taken at sign-up, one
   * not registered at recovery): the answer counts against the caller's IP cap as a code sent would,
   * and past the cap the answer is the cap's, so the cap limits guessing accounts as it limits codes.
   */
  async function countLookup(request: { merchantId: string; ip: string }) {
    const now = clock.now();
    const refusal = await db.transaction(async (tx) => {
      const capped = await ipCapRefusal(tx, request.ip, now);
      if (capped) return capped;
      // a row that holds no code and was never good: it only counts
      await insertCode(tx, {
        id: randomUUID(),
        merchantId: request.merchantId,
        target: LOOKUP_TARGET,
        purpose: LOOKUP_TARGET,
        codeHash: '',
        ip: request.ip,
        createdAt: now,
        expiresAt: now,
        usedAt: now,
      });
      return null;
    });
    if (refusal) throw refusal;
  }

  /**
   * Issues a new code after the send limits, replacing any earlier unused one, then hands it to
   * `deliver`. If delivery fails the code is withdrawn, so the limits do not count a code nobody got.
   */
  async function issueCode(request: CodeRequest, deliver: (code: string) => Promise<void>) {
    const now = clock.now();
    const id = randomUUID();
    const code = randomCode();
    const refusal = await db.transaction(async (tx) => {
      await lockTarget(tx, request.merchantId, request.target);
      const last = await newestCode(tx, request.merchantId, request.target, request.purpose);
      if (last && now.getTime() - last.createdAt.getTime() < codePolicy.resendMs) {
        const seconds = secondsUntil(now, last.createdAt.getTime() + codePolicy.resendMs);
        return new AppError(ErrorCode.CODE_TOO_SOON, { params: { seconds }, data: { retry_after: seconds } });
      }
      const today = await codesToTargetSince(tx, request.merchantId, request.target, new Date(now.getTime() - codePolicy.dayMs));
      if (today.length >= codePolicy.perTargetPerDay) {
        const oldest = today[today.length - codePolicy.perTargetPerDay]?.createdAt ?? now;
        const seconds = secondsUntil(now, oldest.getTime() + codePolicy.dayMs);
        return new AppError(ErrorCode.CODE_DAILY_LIMIT, { params: { seconds }, data: { retry_after: seconds } });
      }
      const capped = await ipCapRefusal(tx, request.ip, now);
      if (capped) return capped;
      await supersedeCodes(tx, request.merchantId, request.target, request.purpose, now);
      await insertCode(tx, {
        id,
        merchantId: request.merchantId,
        target: request.target,
        purpose: request.purpose,
        codeHash: hashCode(id, code),
        ip: request.ip,
        createdAt: now,
        expiresAt: new Date(now.getTime() + codePolicy.ttlMs),
      });
      return null;
    });
    if (refusal) throw refusal;
    try {
      await deliver(code);
    } catch (error) {
      await deleteCode(db, id);
      throw error;
    }
    return { resendAfter: Math.ceil(codePolicy.resendMs / 1000) };
  }

  /**
   * Checks the newest code of a target and purpose. The try is counted (and committed) before the
   * comparison, so five wrong tries burn the code whatever happens after. With `consume`, a right code
   * is used up (only one of two concurrent right answers wins); without, it stays good and the right
   * answer costs no try. Answers when the code expires.
   */
  async function checkCode(check: CodeCheck, consume: boolean) {
    const now = clock.now();
    const outcome = await db.transaction(async (tx) => {
      await lockTarget(tx, check.merchantId, check.target);
      const row = await newestCode(tx, check.merchantId, check.target, check.purpose);
      if (!row) return new AppError(ErrorCode.CODE_NOT_SENT);
      if (row.usedAt || row.supersededAt || row.expiresAt.getTime() <= now.getTime()) return new AppError(ErrorCode.CODE_EXPIRED);
      if (row.attempts >= codePolicy.maxTries) return new AppError(ErrorCode.CODE_BURNED);
      const right = sameText(row.codeHash, hashCode(row.id, check.code));
      // a look that finds the code right costs no try: the target's lock orders every check of it
      if (!consume && right) return { expiresAt: row.expiresAt };
      const tries = await countTry(tx, row.id);
      if (!right) {
        const remaining = codePolicy.maxTries - tries;
        if (remaining <= 0) return new AppError(ErrorCode.CODE_BURNED);
        return new AppError(ErrorCode.CODE_WRONG, { params: { remaining }, data: { remaining } });
      }
      if (!(await consumeCode(tx, row.id, now))) return new AppError(ErrorCode.CODE_EXPIRED);
      return { expiresAt: row.expiresAt };
    });
    if (outcome instanceof AppError) throw outcome;
    return outcome;
  }

  return {
    issue: issueCode,
    countLookup,
    /** Checks a code and uses it up (see checkCode). */
    async use(check: CodeCheck) {
      await checkCode(check, true);
    },
    /** Checks a code and leaves it good: whether a link that carries it still works, and until when. */
    peek: (check: CodeCheck) => checkCode(check, false),
  };
}
export type CodeService = ReturnType<typeof createCodeService>;
