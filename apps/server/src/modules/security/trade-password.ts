import type { TrxPasswordBody } from '@portal/contract/account';
import { ErrorCode } from '@portal/contract/errors';
import { securityCalls } from '@portal/contract/api/security';
import type { Db } from '../../db/engine.ts';
import { traceWithin } from '../../http/call-trace.ts';
import { AppError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { hashPassword, verifyPassword } from '../../lib/crypto.ts';
import type { MerchantRow } from '../merchants/service.ts';
import type { Authenticated } from '../sessions/service.ts';
import type { Caller } from '../../http/caller.ts';
import { refusedOn } from '../../http/field-refusal.ts';
import type { AccountCredentials } from '../accounts/credentials-service.ts';
import { tradeLockedError, tradePasswordPolicy } from './trade-password-policy.ts';
import type { TellSecurityChange } from './security-notice.ts';

/** The refusal of a call that needs a trade password while the caller has none set. */
const notSet = () => new AppError(ErrorCode.TRX_PASSWORD_REQUIRED, { variant: 'notSet', data: { set: false } });

interface TradePasswordDeps {
  db: Db;
  clock: Clock;
  credentials: AccountCredentials;
  tell: TellSecurityChange;
}

/** The trade password: the one rule of money leaving the wallet or a card, and setting or changing it. */
export function createTradePasswordPart({ db, clock, credentials, tell }: TradePasswordDeps) {
  const trade = credentials.tradePassword;
  /**
   * Once the account has a trade password, the call must carry it, right, and not while it is
   * locked. The account's checks run one at a time (its row locked over the check), so only wrong
   * ones are counted, and however many arrive together at most five wrong ones are checked in the
   * window; a right one clears the count. Without a trade password set, any call passes, but one
   * that is `required` (the contract's `tradePassword: 'required'`), which is refused until one is
   * set. `set` is whether one was set when the caller's session was read (it saves a read); unknown,
   * it is read.
   */
  async function confirmTradePassword(memberId: string, given: string | undefined, set?: boolean, required = false) {
    if (!required && !(set ?? (await trade.findHash(memberId)))) return;
    const refusal = await db.transaction(async (tx) => {
      const { hash, failures, lockedUntil } = await trade.lock(tx, memberId);
      if (!hash) return required ? notSet() : null;
      const now = clock.now();
      if (lockedUntil && lockedUntil.getTime() > now.getTime()) return tradeLockedError(lockedUntil, now);
      if (!given) return new AppError(ErrorCode.TRX_PASSWORD_REQUIRED);
      if (await verifyPassword(hash, given)) {
        if (failures > 0) await trade.clearTries(tx, memberId);
        return null;
      }
      // the refusal is answered after the commit, so that the count stays
      const counted = await trade.countWrong(tx, memberId, now, tradePasswordPolicy.windowMs, tradePasswordPolicy.maxFailures);
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
    const memberId = auth.member.id;
    const current = await trade.findHash(memberId);
    if (current) {
      if (!body.old_trx_password) throw new AppError(ErrorCode.TRX_PASSWORD_OLD_REQUIRED);
      await confirmTradePassword(memberId, body.old_trx_password, true);
      if (body.trx_password === body.old_trx_password) throw new AppError(ErrorCode.TRX_PASSWORD_SAME);
    } else if (!loginConfirmed) {
      // a session alone (a stolen one, say) must not set the password that then moves money
      if (!body.password) throw refusedOn(ErrorCode.LOGIN_PASSWORD_REQUIRED, 'password');
      const account = await credentials.findById(memberId);
      if (!account) throw new AppError(ErrorCode.SESSION_UNKNOWN);
      await credentials.confirmLoginPassword(account, body.password, { wrong: ErrorCode.LOGIN_PASSWORD_WRONG, field: 'password' });
    }
    const hash = await hashPassword(body.trx_password);
    const mail = await db.transaction(async (tx) => {
      if (!(await trade.set(tx, memberId, hash, current))) return null;
      await traceWithin(tx, securityCalls.setTradePassword, null);
      return tell(tx, merchant, { accountId: auth.account.id, memberId: auth.member.id }, current ? 'TRX_PASSWORD_CHANGED' : 'TRX_PASSWORD_SET', [auth.member.email], caller);
    });
    // another change landed between the check and this one: checked again against the trade password it set
    if (!mail) return setTradePassword(merchant, auth, body, caller, loginConfirmed || current === null);
    await mail();
  }

  return { confirmTradePassword, setTradePassword };
}
