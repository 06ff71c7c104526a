import { chinaDateTime } from '@portal/contract/date-time';
import { ErrorCode } from '@portal/contract/errors';
import { AppError } from '../../http/errors.ts';
import { secondsLeft } from '../../lib/seconds-left.ts';

/** 5 wrong trade passwords within 15 minutes, wherever they are asked for, lock it for 15 minutes. */
export const tradePasswordPolicy = { windowMs: 15 * 60_000, maxFailures: 5 } as const;

/** The trade password's lock: the message says until when (China time), data also when it ends. */
export function tradeLockedError(until: Date, now: Date) {
  const seconds = secondsLeft(until, now);
  return new AppError(ErrorCode.TRX_PASSWORD_LOCKED, {
    params: { minutes: Math.ceil(seconds / 60), until: chinaDateTime(until).slice(11) },
    data: { retry_after: seconds, locked_until: until.toISOString() },
  });
}
