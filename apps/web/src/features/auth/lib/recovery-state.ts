import type { ResetType } from '@portal/contract/enums';
import { PHONE_PREFIX, rules } from '@portal/contract/rules';
import type { PhoneInfo } from '@portal/contract/validation';

/**
 * What the recovery screens hand each other. The phone flow passes it in navigation state (spec §2),
 * so a reload keeps it and the address bar never shows it; anything else found there is ignored.
 */

/** /change-password-check: the phone the SMS code went to, and when another may be sent. */
export interface PhoneCheckState {
  phone_info: PhoneInfo;
  /** seconds until the code may be sent again */
  resend_after?: number;
}

/** /reset-password by phone: the phone and the single-use ticket of its code check. */
export interface PhoneResetState {
  phone_info: PhoneInfo;
  ticket: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function phoneInfoOf(value: unknown): PhoneInfo | null {
  if (!isRecord(value)) return null;
  const { phone, phone_prefix } = value;
  // the portal only ever hands on mainland numbers; the server refuses any other prefix
  if (typeof phone !== 'string' || phone_prefix !== PHONE_PREFIX || rules.phone(phone) !== null) return null;
  return { phone, phone_prefix };
}

export function readPhoneCheckState(state: unknown): PhoneCheckState | null {
  if (!isRecord(state)) return null;
  const phone_info = phoneInfoOf(state.phone_info);
  if (!phone_info) return null;
  const wait = state.resend_after;
  return typeof wait === 'number' && wait > 0 ? { phone_info, resend_after: wait } : { phone_info };
}

export function readPhoneResetState(state: unknown): PhoneResetState | null {
  if (!isRecord(state)) return null;
  const phone_info = phoneInfoOf(state.phone_info);
  if (!phone_info || typeof state.ticket !== 'string' || state.ticket === '') return null;
  return { phone_info, ticket: state.ticket };
}

/** /reset-password from the e-mailed link: ?email=…&code=…&type=… */
export interface LinkReset {
  email: string;
  code: string;
  type: ResetType;
}

/** The link's query, or null when it is not a reset link; a link without a type resets the login password. */
export function readResetLink(search: URLSearchParams): LinkReset | null {
  const email = search.get('email') ?? '';
  const code = search.get('code') ?? '';
  const type = search.get('type') ?? 'FORGET_PASSWORD';
  if (!email || !code) return null;
  if (type !== 'FORGET_PASSWORD' && type !== 'FORGET_TRX_PASSWORD') return null;
  return { email, code, type };
}

/** "13800138000" → "8000": the screens show only the last four digits of the phone (spec §2). */
export const lastFourDigits = (phone: string) => phone.slice(-4);
