/**
 * The codes of the security centre's refusals (21xx: the login password, the e-mail and phone changes,
 * the sessions); the error catalogue gives each its HTTP status, 中文 message and meaning. Apart from
 * errors.ts so that the sign-in page, which reads that file, does not carry them.
 */
export const SecurityErrorCode = {
  OLD_PASSWORD_WRONG: 2101,
  PASSWORD_UNCHANGED: 2102,
  EMAIL_UNCHANGED: 2103,
  PHONE_UNCHANGED: 2104,
  PHONE_IN_USE: 2105,
  SESSION_NOT_FOUND: 2106,
} as const;
