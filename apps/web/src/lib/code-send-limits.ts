import { ErrorCode } from '@portal/contract/errors';
import { isApiError } from './http.ts';

/** How a screen that sends codes (CodeInput) reads a refusal of the code-send limits (product.md §2). */

const sendLimitCodes: readonly number[] = [ErrorCode.CODE_TOO_SOON, ErrorCode.CODE_DAILY_LIMIT, ErrorCode.CODE_IP_LIMIT];

/** Seconds to wait before another code may be asked for, when a send was refused by a sending limit. */
export function sendRetryAfter(error: unknown): number | null {
  if (!isApiError(error) || error.code === null || !sendLimitCodes.includes(error.code)) return null;
  const seconds = (error.data as { retry_after?: unknown } | null)?.retry_after;
  return typeof seconds === 'number' && seconds > 0 ? seconds : null;
}

/**
 * The countdown after a code request the server refused: the seconds its sending limit asks to wait
 * (a refusal as too soon means the code sent a moment ago is still good: `stillGood` is called),
 * or the error again when no limit refused it.
 */
export function countdownAfterRefusal(error: unknown, stillGood: () => void): number {
  const wait = sendRetryAfter(error);
  if (wait === null) throw error;
  if (isApiError(error) && error.code === ErrorCode.CODE_TOO_SOON) stillGood();
  return wait;
}
