/**
 * The codes of money in (31xx: top-up notices, their receipts, the operator's crediting); the error
 * catalogue gives each its HTTP status, 中文 message and meaning.
 */
export const FundingErrorCode = {
  DEPOSIT_NOT_FOUND: 3101,
  DEPOSIT_DECIDED: 3102,
  RECEIPT_TOO_LARGE: 3103,
  RECEIPT_TYPE: 3104,
  RECEIPT_NOT_FOUND: 3105,
  TRANSFER_TIME_FUTURE: 3106,
  RECEIPT_USED: 3107,
  STATEMENT_LINE_NOT_FOUND: 3108,
  STATEMENT_LINE_CREDITED: 3109,
  STATEMENT_LINE_CURRENCY: 3110,
  CREDIT_ACCOUNT_NOT_FOUND: 3111,
} as const;
