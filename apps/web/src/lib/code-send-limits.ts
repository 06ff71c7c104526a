import { ErrorCode } from '@portal/contract/errors';
import { limits } from '@portal/contract/rules';
import { isApiError } from './http.ts';
import { CODE_REQUEST_PREFIX, readStorage, writeStorage } from './storage.ts';

/**
 * How a screen that sends codes (CodeInput) reads a refusal of the code-send limits (product.md §2),
 * and what it remembers of the codes it asked for.
 */

const sendLimitCodes: readonly number[] = [ErrorCode.CODE_TOO_SOON, ErrorCode.CODE_DAILY_LIMIT, ErrorCode.CODE_IP_LIMIT, ErrorCode.RATE_LIMITED];

/** Seconds to wait before another code may be asked for, when a send was refused by a sending limit. */
export function sendRetryAfter(error: unknown): number | null {
  if (!isApiError(error) || error.code === null || !sendLimitCodes.includes(error.code)) return null;
  const seconds = (error.data as { retry_after?: unknown } | null)?.retry_after;
  return typeof seconds === 'number' && seconds > 0 ? seconds : null;
}

/**
 * A code asked for, kept per purpose and target for as long as it is good, in the tab's session
 * storage: a reload or a dialog opened again still knows the code the customer received, and how
 * long before another may be sent.
 */
export interface CodeRequest {
  /** when the code stops being good, ms since the epoch */
  expiresAt: number;
  /** when another may be sent, ms since the epoch */
  resendAt: number;
  /** where it went, masked (138****8000), when the server said */
  sentTo: string | null;
}

const STORAGE_PREFIX = CODE_REQUEST_PREFIX;

/** What a code is for (mark_type) and where it goes (a phone, an e-mail, or the account's own channel). */
export const codeRequestKey = (purpose: string, target: string) => `${purpose}:${target.trim().toLowerCase()}`;

function write(key: string, request: CodeRequest) {
  writeStorage('session', STORAGE_PREFIX + key, JSON.stringify(request));
}

/** The code asked for under this key, while it is good; null when none was, or it has expired. */
export function codeRequest(key: string, now = Date.now()): CodeRequest | null {
  const kept = readStorage('session', STORAGE_PREFIX + key);
  if (!kept) return null;
  try {
    const request = JSON.parse(kept) as CodeRequest;
    if (typeof request.expiresAt !== 'number' || typeof request.resendAt !== 'number') return null;
    if (request.expiresAt <= now) {
      writeStorage('session', STORAGE_PREFIX + key, null);
      return null;
    }
    return { expiresAt: request.expiresAt, resendAt: request.resendAt, sentTo: typeof request.sentTo === 'string' ? request.sentTo : null };
  } catch {
    return null;
  }
}

/** Seconds before another code may be asked for under this key (0: now). */
export function resendWait(key: string, now = Date.now()): number {
  const request = codeRequest(key, now);
  return request ? Math.max(0, Math.ceil((request.resendAt - now) / 1000)) : 0;
}

/** A code was sent just now: good for its validity, another after `resendAfter` seconds. */
export function rememberCodeSent(key: string, sent: { resendAfter: number; sentTo?: string | null }, now = Date.now()) {
  write(key, { expiresAt: now + limits.codeValidSeconds * 1000, resendAt: now + sent.resendAfter * 1000, sentTo: sent.sentTo ?? null });
}

/**
 * Another code was refused as too soon, `retryAfter` seconds before one may be sent: the code sent a
 * moment ago (resend seconds − retryAfter ago) is still good, whether or not this tab asked for it.
 */
export function rememberResendRefused(key: string, retryAfter: number, now = Date.now()) {
  const sentAt = now - Math.max(0, limits.codeResendSeconds - retryAfter) * 1000;
  const earlier = codeRequest(key, now);
  write(key, { expiresAt: sentAt + limits.codeValidSeconds * 1000, resendAt: now + retryAfter * 1000, sentTo: earlier?.sentTo ?? null });
}

/** The code under this key was used up (a successful check): nothing to enter any more. */
export function forgetCodeRequest(key: string) {
  writeStorage('session', STORAGE_PREFIX + key, null);
}

/** An access code (MARK_TYPE_ACCESS) goes to the signed-in account's own phone or e-mail: kept per channel. */
export const accessCodeKey = (sendType: string) => codeRequestKey('MARK_TYPE_ACCESS', sendType);

/**
 * The access code of a sign-in's verification goes to the account being signed in, before anyone is:
 * kept per channel and per the phone or e-mail typed at sign-in.
 */
export const signInCodeKey = (sendType: string, account: string) => codeRequestKey('MARK_TYPE_ACCESS', `${sendType}:signin:${account}`);
