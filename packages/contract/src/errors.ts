/**
 * The codes of every failure the API can answer; error-catalogue.ts gives each its HTTP status, its
 * 中文 message and what it means. The portal reads only the codes (the server sends the message), so
 * this file stays small on the sign-in page.
 * Numbering: 6xx and 1000 are the session codes the portal logs out on (spec §8); 1xxx general,
 * 2xxx accounts and codes (210x the trade password; 211x the security centre, security-errors.ts), 3xxx money, 5xxx messages; the cards' 4xxx (49xx the card issuer's webhook) and
 * 1008 are in card-errors.ts, which the sign-in page does not load.
 */

export const ErrorCode = {
  OK: 0,
  SESSION_MISSING: 605,
  SESSION_UNKNOWN: 606,
  SESSION_EXPIRED: 607,
  SESSION_REVOKED: 608,
  ACCOUNT_DISABLED: 1000,
  VALIDATION: 1001,
  NOT_FOUND: 1002,
  MERCHANT_UNKNOWN: 1003,
  RATE_LIMITED: 1004,
  INTERNAL: 1005,
  IDEMPOTENCY_CONFLICT: 1006,
  PAYLOAD_TOO_LARGE: 1007,
  METHOD_NOT_ALLOWED: 1009,
  AGREEMENT_NOT_FOUND: 1101,
  CODE_WRONG: 2001,
  CODE_EXPIRED: 2002,
  CODE_BURNED: 2003,
  CODE_TOO_SOON: 2004,
  CODE_DAILY_LIMIT: 2005,
  CODE_IP_LIMIT: 2006,
  PHONE_TAKEN: 2007,
  EMAIL_TAKEN: 2008,
  BAD_CREDENTIALS: 2009,
  LOGIN_LOCKED: 2010,
  VERIFICATION_REQUIRED: 2011,
  EMAIL_REQUIRED: 2012,
  INVITATION_UNKNOWN: 2013,
  PHONE_NOT_REGISTERED: 2014,
  EMAIL_NOT_REGISTERED: 2015,
  RESET_TICKET_INVALID: 2016,
  EMAIL_ALREADY_BOUND: 2017,
  CODE_NOT_SENT: 2018,
  DEVICE_NOT_FOUND: 2019,
  NO_EMAIL_ON_ACCOUNT: 2020,
  CODE_NOT_DELIVERED: 2021,
  RESET_LINK_UNAVAILABLE: 2022,
  LOGIN_PASSWORD_REQUIRED: 2023,
  LOGIN_PASSWORD_WRONG: 2024,
  TRX_PASSWORD_REQUIRED: 2101,
  TRX_PASSWORD_WRONG: 2102,
  TRX_PASSWORD_LOCKED: 2103,
  TRX_PASSWORD_OLD_REQUIRED: 2104,
  TRX_PASSWORD_SAME: 2105,
  MESSAGE_NOT_FOUND: 5001,
  INSUFFICIENT_FUNDS: 3001,
  WALLET_FROZEN: 3002,
  HOLD_NOT_FOUND: 3003,
  HOLD_SETTLED: 3004,
  LEDGER_TRANSACTION_NOT_FOUND: 3005,
  ALREADY_REVERSED: 3006,
  AMOUNT_INVALID: 3007,
  CARD_BALANCE_INSUFFICIENT: 3008,
  EXPORT_TOO_LARGE: 3009,
  BALANCE_LIMIT: 3010,
  STATEMENT_MONTH_NOT_BEGUN: 3011,
  STATEMENT_TOO_LARGE: 3012,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

export const SESSION_ERROR_CODES: readonly number[] = [
  ErrorCode.SESSION_MISSING,
  ErrorCode.SESSION_UNKNOWN,
  ErrorCode.SESSION_EXPIRED,
  ErrorCode.SESSION_REVOKED,
  ErrorCode.ACCOUNT_DISABLED,
];

export const isSessionErrorCode = (code: number) => SESSION_ERROR_CODES.includes(code);

export function formatMessage(template: string, params: Record<string, string | number> = {}) {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in params ? String(params[key]) : whole,
  );
}
