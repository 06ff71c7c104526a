import type { CatalogueEntry } from './error-catalogue-entry.ts';

/** The console's codes for its customers' screens (6100–6149): a customer, a card or a wallet as an operator acts on it. */
export const ConsoleCustomerErrorCode = {
  CUSTOMER_NOT_FOUND: 6100,
  CARD_NOT_FOUND: 6101,
  CARD_FROZEN_ALREADY: 6102,
  CARD_NOT_FROZEN_BY_PLATFORM: 6103,
  CARD_NOT_FREEZABLE: 6104,
  WALLET_FROZEN_ALREADY: 6105,
  WALLET_NOT_FROZEN: 6106,
  ISSUER_UNAVAILABLE: 6107,
} as const;

export const consoleCustomerErrors: Record<number, CatalogueEntry> = {
  [ConsoleCustomerErrorCode.CUSTOMER_NOT_FOUND]: { status: 404, message: '客户不存在', meaning: 'No customer account of this merchant has that id.' },
  [ConsoleCustomerErrorCode.CARD_NOT_FOUND]: { status: 404, message: '卡片不存在', meaning: 'No card of this merchant’s customers has that id.' },
  [ConsoleCustomerErrorCode.CARD_FROZEN_ALREADY]: {
    status: 409,
    message: '该卡片已被平台冻结',
    meaning: 'The card is frozen by an operator already; the freeze and its reason stay as they were.',
  },
  [ConsoleCustomerErrorCode.CARD_NOT_FROZEN_BY_PLATFORM]: {
    status: 409,
    message: '该卡片未被平台冻结，无需解冻',
    meaning: 'Only a freeze made by an operator (console or command line) can be lifted here; the card is in use, or frozen by its holder or the issuer.',
  },
  [ConsoleCustomerErrorCode.CARD_NOT_FREEZABLE]: {
    status: 409,
    message: '卡片当前状态为{status}，不能冻结',
    meaning: 'Only a card in use or frozen (by its holder or the issuer) can be frozen by an operator; not one opening, failed or cancelled.',
  },
  [ConsoleCustomerErrorCode.WALLET_FROZEN_ALREADY]: { status: 409, message: '该客户的钱包已冻结', meaning: 'The wallet is frozen already; its reason stays as it was.' },
  [ConsoleCustomerErrorCode.WALLET_NOT_FROZEN]: { status: 409, message: '该客户的钱包未冻结', meaning: 'An unfreeze of a wallet that is not frozen.' },
  [ConsoleCustomerErrorCode.ISSUER_UNAVAILABLE]: {
    status: 503,
    message: '发卡机构暂时无法处理，请稍后再试',
    meaning: 'The card issuer did not take the freeze or unfreeze; the card is as it was (the audit row of the attempt stays).',
  },
};
