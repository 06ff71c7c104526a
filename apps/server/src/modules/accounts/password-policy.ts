import { ErrorCode } from '@portal/contract/errors';
import { AppError } from '../../http/errors.ts';
import { secondsLeft } from '../../lib/seconds-left.ts';

/**
 * product.md §2: 5 wrong passwords within 15 minutes lock password sign-in for 15 minutes; the third
 * and fourth refusals warn of it. A wrong old password at a password change counts the same (the
 * same secret, and a session must not be a way around the lock).
 */
export const loginPolicy = { windowMs: 15 * 60_000, maxFailures: 5, warnFromFailure: 3 } as const;

export function lockedError(until: Date, now: Date) {
  const seconds = secondsLeft(until, now);
  return new AppError(ErrorCode.LOGIN_LOCKED, { params: { minutes: Math.ceil(seconds / 60) }, data: { retry_after: seconds } });
}

/**
 * The refusal of a wrong login password (`code`), counted: the lock once this try set it, a warning
 * of it from the third.
 */
export function wrongPasswordError({ failures, lockedUntil }: { failures: number; lockedUntil: Date | null }, now: Date, code: number = ErrorCode.BAD_CREDENTIALS) {
  if (lockedUntil) return lockedError(lockedUntil, now);
  if (failures < loginPolicy.warnFromFailure) return new AppError(code);
  const remaining = loginPolicy.maxFailures - failures;
  return new AppError(code, { variant: 'lockWarning', params: { remaining, minutes: loginPolicy.windowMs / 60_000 }, data: { remaining } });
}
