/** The ledger's idempotency keys of the card's own movements: one per step, so a repeated event moves nothing. */
export const ledgerKeys = {
  openHold: (cardId: string) => `card:${cardId}:open-hold`,
  openFeePost: (cardId: string) => `card:${cardId}:open-fee-post`,
  openLoadPost: (cardId: string) => `card:${cardId}:open-load-post`,
  openFeeRelease: (cardId: string) => `card:${cardId}:open-fee-release`,
  openLoadRelease: (cardId: string) => `card:${cardId}:open-load-release`,
  close: (cardId: string) => `card:${cardId}:close`,
  /** a customer's Idempotency-Key, kept apart per account and per call */
  recharge: (accountId: string, key: string) => `card-recharge:${accountId}:${key}`,
  withdraw: (accountId: string, key: string) => `card-withdraw:${accountId}:${key}`,
};
