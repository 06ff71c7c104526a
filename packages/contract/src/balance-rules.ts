/**
 * Money that moves by itself and balances that are watched (shared/design/growing-customers.md §3):
 * a card's auto top-up rule, and the low-balance alerts of the wallet and the cards.
 */
import { z } from 'zod';
import { CURRENCIES } from './enums.ts';
import { AMOUNT_PATTERN, toMinorUnits } from './money.ts';
import { moneyText } from './wallet.ts';

export const balanceRuleMessages = {
  threshold: '请输入正确的触发余额（不小于0，最多两位小数）',
  target: '请输入正确的目标余额（大于0，最多两位小数）',
  dailyMax: '请输入正确的每日充值上限（大于0，最多两位小数）',
  targetAboveThreshold: '目标余额须高于触发余额',
  alertThreshold: '请输入正确的提醒余额（大于0，最多两位小数）',
  alertCurrencyTwice: '每个币种只能设置一个提醒余额',
} as const;

/** What the rule's state is called on the screens. */
export const AUTO_RECHARGE_STATUSES = ['ACTIVE', 'PAUSED'] as const;
export type AutoRechargeStatus = (typeof AUTO_RECHARGE_STATUSES)[number];
export const AUTO_RECHARGE_STATUS_LABELS: Record<AutoRechargeStatus | 'OFF', string> = { ACTIVE: '已开启', PAUSED: '已暂停', OFF: '未开启' };

/** Where a card's rule in force comes from: set on the card itself, or a tag's rule. */
export const AUTO_RECHARGE_SOURCES = ['CARD', 'TAG'] as const;
export type AutoRechargeSource = (typeof AUTO_RECHARGE_SOURCES)[number];

/** The titles of the low-balance station messages (spec texts). */
export const ALERT_TITLES = { wallet: '余额不足提醒', card: '卡片余额不足提醒' } as const;

const amountOf = (message: string, { zero }: { zero: boolean }) =>
  z
    .string()
    .trim()
    .refine((value) => AMOUNT_PATTERN.test(value) && (zero || toMinorUnits(value) > 0n), { message });

/** PUT /card/{id}/auto-recharge: when the card's available falls below `threshold`, top it up to `target`, at most `daily_max` a China-time day. */
export const autoRechargeBody = z
  .object({
    enabled: z.boolean(),
    threshold: amountOf(balanceRuleMessages.threshold, { zero: true }),
    target: amountOf(balanceRuleMessages.target, { zero: false }),
    daily_max: amountOf(balanceRuleMessages.dailyMax, { zero: false }),
  })
  .superRefine((body, context) => {
    if (AMOUNT_PATTERN.test(body.threshold) && AMOUNT_PATTERN.test(body.target) && toMinorUnits(body.target) <= toMinorUnits(body.threshold)) {
      context.addIssue({ code: 'custom', path: ['target'], message: balanceRuleMessages.targetAboveThreshold });
    }
  });
export type AutoRechargeBody = z.input<typeof autoRechargeBody>;

/** A card's rule as answered: its own, or its tag's (`source`), or none (`enabled` false, amounts null). */
export const autoRechargeRule = z.object({
  card_id: z.string(),
  currency: z.enum(CURRENCIES),
  enabled: z.boolean(),
  threshold: moneyText.nullable(),
  target: moneyText.nullable(),
  daily_max: moneyText.nullable(),
  status: z.enum(AUTO_RECHARGE_STATUSES),
  /** CARD: the card's own rule (it wins over every tag's); TAG: the rule of `source_tag`; null: none */
  source: z.enum(AUTO_RECHARGE_SOURCES).nullable(),
  source_tag: z.string().nullable(),
  /** why it paused (the wallet could not pay), when PAUSED */
  paused_reason: z.string().nullable(),
  /** what auto top-ups put on the card since 00:00 China time today */
  used_today: moneyText,
  /** the latest run: when, how much, and how it ended */
  last_run: z
    .object({ at: z.string(), amount: moneyText.nullable(), status: z.enum(['PENDING', 'DONE', 'FAILED', 'SKIPPED']), reason: z.string().nullable() })
    .nullable(),
});
export type AutoRechargeRule = z.infer<typeof autoRechargeRule>;

/** What a card list item says of its rule. */
export const autoRechargeBrief = z
  .object({ threshold: moneyText, target: moneyText, status: z.enum(AUTO_RECHARGE_STATUSES), tag: z.string().nullable().optional() })
  .nullable();
export type AutoRechargeBrief = z.infer<typeof autoRechargeBrief>;

/**
 * Which tag's rule is in force on a card that has no rule of its own and carries several tags with rules:
 * the highest target, then the higher threshold, then the tag first in code-point order. Disabled tag
 * rules are kept but apply to no card.
 */
export const winningTagRule = <R extends { tag: string; enabled: boolean; threshold: bigint; target: bigint }>(rules: readonly R[]): R | undefined =>
  rules
    .filter((rule) => rule.enabled)
    .sort((a, b) => (a.target !== b.target ? (b.target > a.target ? 1 : -1) : a.threshold !== b.threshold ? (b.threshold > a.threshold ? 1 : -1) : a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0))[0];

/** A tag's auto top-up rule as answered, with how many cards it is in force on now. */
export const tagAutoRechargeRule = z.object({
  tag: z.string(),
  enabled: z.boolean(),
  threshold: moneyText,
  target: moneyText,
  daily_max: moneyText,
  /** cards carrying the tag */
  cards_tagged: z.number().int(),
  /** cards whose rule in force is this one (no rule of their own, no tag rule above it) */
  cards_in_force: z.number().int(),
  updated_at: z.string(),
});
export type TagAutoRechargeRule = z.infer<typeof tagAutoRechargeRule>;
export const tagAutoRechargeList = z.object({ items: z.array(tagAutoRechargeRule) });
export type TagAutoRechargeList = z.infer<typeof tagAutoRechargeList>;
export const tagRuleRemoved = z.object({ tag: z.string() });

/** PUT /account/alerts: a threshold per wallet currency (none: no alert), and one for every card (in its own currency). */
export const alertsBody = z.object({
  wallet: z
    .array(z.object({ currency: z.enum(CURRENCIES), threshold: amountOf(balanceRuleMessages.alertThreshold, { zero: false }) }))
    .max(CURRENCIES.length)
    .refine((items) => new Set(items.map((item) => item.currency)).size === items.length, { message: balanceRuleMessages.alertCurrencyTwice }),
  card_default_threshold: amountOf(balanceRuleMessages.alertThreshold, { zero: false }).nullable().optional(),
});
export type AlertsBody = z.input<typeof alertsBody>;

export const alertsAnswer = z.object({
  wallet: z.array(z.object({ currency: z.enum(CURRENCIES), threshold: moneyText })),
  card_default_threshold: moneyText.nullable(),
});
export type AlertsAnswer = z.infer<typeof alertsAnswer>;
