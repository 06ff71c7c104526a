import type { Db, Tx } from '../../db/engine.ts';
import { onField } from '../../http/field-refusal.ts';
import type { Clock } from '../../lib/clock.ts';
import { verifyPassword } from '../../lib/crypto.ts';
import type { MailSender } from '../../providers/mail/port.ts';
import type { SmsSender } from '../../providers/sms/port.ts';
import type { CodeService } from '../codes/service.ts';
import { codeDelivery } from './code-delivery.ts';
import { lockedError, loginPolicy, wrongPasswordError } from './password-policy.ts';
import {
  clearFailedLogins,
  clearTradePasswordTries,
  claimPasswordTry,
  countWrongTradePassword,
  findMemberByEmail,
  findMemberById,
  findMemberLock,
  findOtherMemberByPhone,
  findTradePasswordHash,
  lockTradePassword,
  setEmail,
  setPassword,
  setPhone,
  setTrxPassword,
} from './store.ts';

export type { SendCode } from './code-delivery.ts';

interface CredentialsDeps {
  db: Db;
  clock: Clock;
  codes: CodeService;
  sms: SmsSender;
  mail: MailSender;
}

/**
 * The account's row as the security centre changes it: found by id or address, its login password
 * asked again (counted as a sign-in is), its password, e-mail, phone and trade password written, and
 * the codes sent to its addresses. The account row and its counts stay this module's.
 */
export function createAccountCredentials({ db, clock, codes, sms, mail }: CredentialsDeps) {
  /**
   * The login password of a signed-in account, asked again before a change a session alone must not
   * make. A wrong one counts toward the sign-in lock as a wrong sign-in does (the try is claimed before
   * the comparison, so parallel tries never check more than the lock allows); it is refused with
   * `wrong`, on `field`, warning of the lock from the third. The right one clears the count.
   */
  async function confirmLoginPassword(account: { id: string; passwordHash: string; lockedUntil: Date | null }, given: string, refusal: { wrong: number; field: string }) {
    const now = clock.now();
    if (account.lockedUntil && account.lockedUntil.getTime() > now.getTime()) throw lockedError(account.lockedUntil, now);
    const claimed = await claimPasswordTry(db, account.id, now, loginPolicy.windowMs, loginPolicy.maxFailures);
    if (!claimed) throw lockedError((await findMemberLock(db, account.id)) ?? new Date(now.getTime() + loginPolicy.windowMs), now);
    if (!(await verifyPassword(account.passwordHash, given))) {
      const refused = wrongPasswordError(claimed, now, refusal.wrong);
      throw claimed.lockedUntil ? refused : onField(refused, refusal.field);
    }
    // the right password: the try counted before the check is no failure
    await clearFailedLogins(db, account.id);
  }

  return {
    confirmLoginPassword,
    sendCode: codeDelivery({ codes, sms, mail }),
    findById: (accountId: string) => findMemberById(db, accountId),
    findByEmail: (merchantId: string, email: string) => findMemberByEmail(db, merchantId, email),
    /** Another account of the merchant that signs in with this phone, if there is one. */
    findOtherByPhone: (merchantId: string, accountId: string, prefix: string, phone: string) => findOtherMemberByPhone(db, merchantId, accountId, prefix, phone),
    setPassword: (tx: Tx, accountId: string, passwordHash: string) => setPassword(tx, accountId, passwordHash),
    setEmail: (tx: Tx, accountId: string, email: string) => setEmail(tx, accountId, email),
    setPhone: (tx: Tx, accountId: string, prefix: string, phone: string) => setPhone(tx, accountId, prefix, phone),
    /** The trade password's hash and counts on the account row (store.ts says how each holds under concurrency). */
    tradePassword: {
      findHash: (accountId: string) => findTradePasswordHash(db, accountId),
      lock: (tx: Tx, accountId: string) => lockTradePassword(tx, accountId),
      clearTries: (tx: Tx, accountId: string) => clearTradePasswordTries(tx, accountId),
      countWrong: (tx: Tx, accountId: string, now: Date, windowMs: number, maxTries: number) => countWrongTradePassword(tx, accountId, now, windowMs, maxTries),
      set: (tx: Tx, accountId: string, hash: string, expected?: string | null) => setTrxPassword(tx, accountId, hash, expected),
    },
  };
}

export type AccountCredentials = ReturnType<typeof createAccountCredentials>;
