/**
 * The codes of the security centre's refusals (211x: the login password, the e-mail and phone changes,
 * the sessions); the error catalogue gives each its HTTP status, 中文 message and meaning. Apart from
 * errors.ts so that the sign-in page, which reads that file, does not carry them.
 */
export const SecurityErrorCode = {
  OLD_PASSWORD_WRONG: 2111,
  PASSWORD_UNCHANGED: 2112,
  EMAIL_UNCHANGED: 2113,
  PHONE_UNCHANGED: 2114,
  PHONE_IN_USE: 2115,
  SESSION_NOT_FOUND: 2116,
} as const;
