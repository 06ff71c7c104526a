import type { CatalogueEntry } from './error-catalogue-entry.ts';
import { BalanceRuleErrorCode } from './balance-rules-errors.ts';

/** Auto top-up rules and low-balance alerts. */
export const balanceRuleErrors: Record<number, CatalogueEntry> = {
  [BalanceRuleErrorCode.AUTO_RECHARGE_CARD_CLOSED]: {
    status: 400,
    message: '该卡片已注销或开卡失败，不能设置自动充值',
    meaning: 'An auto top-up rule was set on a card that is cancelled (or being cancelled) or failed to open; nothing changed.',
  },
  [BalanceRuleErrorCode.AUTO_RECHARGE_TARGET_ABOVE_MAX]: {
    status: 400,
    message: '目标余额超出该卡的余额上限（{max} {currency}）',
    meaning: "The rule's target is above the most the card's product lets a card hold (data: max, currency); nothing changed.",
  },
  [BalanceRuleErrorCode.TAG_RULE_TEAM_ONLY]: {
    status: 403,
    message: '标签自动充值规则作用于团队中带该标签的所有卡片，成员只能为自己持有的卡片设置自动充值',
    meaning: "A member who acts only on the cards they hold set or removed a tag's rule, which applies to every card of the account with that tag; nothing changed.",
  },
  [BalanceRuleErrorCode.TAG_RULE_NOT_FOUND]: {
    status: 404,
    message: '该标签没有自动充值规则',
    meaning: 'The tag named has no auto top-up rule on this account; nothing changed.',
  },
};
