import { ErrorCode } from '@portal/contract/errors';
import { AppError } from '../../http/errors.ts';

/**
 * product.md §2: 5 wrong passwords within 15 minutes lock password sign-in for 15 minutes; the third
 * and fourth refusals warn of it. A wrong old password at a password change counts the same (the
 * same secret, and a session must not be a way around the lock).
 */
export const loginPolicy = { windowMs: 15 * 60_000, maxFailures: 5, warnFromFailure: 3 } as const;

export function lockedError(until: Date, now: Date) {
  const seconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  return new AppError(ErrorCode.LOGIN_LOCKED, { params: { minutes: Math.ceil(seconds / 60) }, data: { retry_after: seconds } });
}
