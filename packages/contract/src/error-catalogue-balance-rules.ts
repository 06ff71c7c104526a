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
};
