/**
 * The codes of auto top-up and low-balance alert refusals (3201–3229); the error catalogue gives each
 * its HTTP status, 中文 message and meaning.
 */
export const BalanceRuleErrorCode = {
  AUTO_RECHARGE_CARD_CLOSED: 3201,
  AUTO_RECHARGE_TARGET_ABOVE_MAX: 3202,
  TAG_RULE_TEAM_ONLY: 3203,
  TAG_RULE_NOT_FOUND: 3204,
} as const;
