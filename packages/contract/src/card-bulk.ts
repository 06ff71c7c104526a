/**
 * Bulk actions on many cards at once (shared/design/growing-customers.md §2): one call names the
 * action and the cards (their ids, or the card list's filter), a durable job acts on each card once.
 * The review (what it would do and cost) and the call itself are decided from the rules below.
 */
import { z } from 'zod';
import { autoRechargeBody } from './balance-rules.ts';
import { cardListFilter, cardTagText } from './card-list.ts';
import { cardAmountRule, cardTagRules, rechargeCost, type topupFeeRule } from './cards.ts';
import { cardControlsBody } from './card-spending.ts';
import { type CardStatus, CURRENCIES, type Currency } from './enums.ts';
import { fromMinorUnits, toMinorUnits } from './money.ts';
import type { Action } from './team.ts';
import { ruled, trxPasswordField } from './validation.ts';
import { moneyText } from './wallet.ts';

export const BULK_ACTIONS = ['FREEZE', 'UNFREEZE', 'RECHARGE', 'WITHDRAW', 'SET_CONTROLS', 'ADD_TAGS', 'REMOVE_TAGS', 'SET_HOLDER', 'CANCEL', 'SET_AUTO_RECHARGE'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

export const BULK_ACTION_LABELS: Record<BulkAction, string> = {
  FREEZE: '冻结',
  UNFREEZE: '解冻',
  RECHARGE: '充值',
  WITHDRAW: '提现',
  SET_CONTROLS: '设置限额与管控',
  ADD_TAGS: '添加标签',
  REMOVE_TAGS: '移除标签',
  SET_HOLDER: '更换持卡成员',
  CANCEL: '注销',
  SET_AUTO_RECHARGE: '设置自动充值',
};

/** The role action (team.ts) each bulk action needs: the same as the one-card call's. */
export const BULK_ACTION_ROLE: Record<BulkAction, Action> = {
  FREEZE: 'cards.manage',
  UNFREEZE: 'cards.manage',
  RECHARGE: 'cards.fund',
  WITHDRAW: 'cards.fund',
  SET_CONTROLS: 'cards.manage',
  ADD_TAGS: 'cards.manage',
  REMOVE_TAGS: 'cards.manage',
  SET_HOLDER: 'cards.assign',
  CANCEL: 'cards.manage',
  SET_AUTO_RECHARGE: 'cards.fund',
};

/** The actions that move money out of the wallet or a card: confirmed with the trade password. */
export const bulkMovesMoney = (action: BulkAction) => action === 'RECHARGE' || action === 'WITHDRAW' || action === 'CANCEL';

/** The actions that change a card's settings rather than its status or money. */
export const BULK_SETTINGS_ACTIONS: readonly BulkAction[] = ['SET_CONTROLS', 'ADD_TAGS', 'REMOVE_TAGS', 'SET_HOLDER', 'SET_AUTO_RECHARGE'];
/** A card whose settings a bulk action no longer changes: cancelled, being cancelled, or never opened. */
export const bulkSettingsClosed = (status: CardStatus) => status === 'DELETE' || status === 'DELETING' || status === 'FAIL';

/** At most this many cards a call. */
export const BULK_MAX_CARDS = 1000;

/** The card list's own query fields, without its paging: whatever the list filters by, a bulk action may. */
export const bulkFilter = cardListFilter;
export type BulkFilter = z.infer<typeof bulkFilter>;

export const bulkMessages = {
  cardsOrFilter: '请选择卡片，或使用列表的筛选条件',
  tagsRequired: '请输入标签',
  tag: `标签须为1-${cardTagRules.maxLength}个字符`,
  tags: `每次最多${cardTagRules.perCard}个标签`,
  holderRequired: '请选择持卡成员',
} as const;

const amount = ruled(cardAmountRule);
const tagList = z
  .array(cardTagText)
  .min(1, bulkMessages.tagsRequired)
  .max(cardTagRules.perCard, bulkMessages.tags);

/** Each action's params. */
export const bulkParams = {
  FREEZE: z.object({}).strict().optional(),
  UNFREEZE: z.object({}).strict().optional(),
  CANCEL: z.object({}).strict().optional(),
  RECHARGE: z.union([z.object({ amount }).strict(), z.object({ target_balance: amount }).strict()]),
  WITHDRAW: z.union([z.object({ amount }).strict(), z.object({ all: z.literal(true) }).strict()]),
  SET_CONTROLS: cardControlsBody,
  ADD_TAGS: z.object({ tags: tagList }).strict(),
  REMOVE_TAGS: z.object({ tags: tagList }).strict(),
  SET_HOLDER: z.object({ holder_member_id: z.string({ error: bulkMessages.holderRequired }).max(100) }).strict(),
  // each card's own rule set as the one-card form sets it; `{enabled: false}` alone switches it off (a card
  // whose rule came from a tag keeps that rule's amounts, switched off, as its own)
  SET_AUTO_RECHARGE: z.union([z.object({ enabled: z.literal(false) }).strict(), autoRechargeBody]),
} satisfies Record<BulkAction, z.ZodType>;

const choice = {
  card_ids: z.array(z.string().max(100)).min(1).max(BULK_MAX_CARDS).optional(),
  filter: bulkFilter.optional(),
  trx_password: trxPasswordField,
};

const variant = <A extends BulkAction>(action: A) => z.object({ action: z.literal(action), params: bulkParams[action], ...choice });

/** POST /card/bulk-actions (and its review): the action, its params, and the cards by id or by the list's filter. */
export const bulkActionBody = z
  .discriminatedUnion('action', [
    variant('FREEZE'),
    variant('UNFREEZE'),
    variant('CANCEL'),
    variant('RECHARGE'),
    variant('WITHDRAW'),
    variant('SET_CONTROLS'),
    variant('ADD_TAGS'),
    variant('REMOVE_TAGS'),
    variant('SET_HOLDER'),
    variant('SET_AUTO_RECHARGE'),
  ])
  .superRefine((body, context) => {
    if ((body.card_ids === undefined) === (body.filter === undefined)) context.addIssue({ code: 'custom', path: ['card_ids'], message: bulkMessages.cardsOrFilter });
  });
export type BulkActionBody = z.input<typeof bulkActionBody>;
export type BulkActionRequest = z.output<typeof bulkActionBody>;

export const bulkActionCreated = z.object({ id: z.string() });

/** What a bulk action would do, before it is confirmed: how many cards, and for money the whole cost per currency. */
export const bulkReview = z.object({
  action: z.enum(BULK_ACTIONS),
  total: z.number().int(),
  money: z.array(
    z.object({
      currency: z.enum(CURRENCIES),
      /** cards the money moves for */
      cards: z.number().int(),
      amount: moneyText,
      fee: moneyText,
      /** what leaves the wallet (RECHARGE) or comes back to it (WITHDRAW) */
      total: moneyText,
      wallet_available: moneyText,
      wallet_after: moneyText,
    }),
  ),
});
export type BulkReview = z.infer<typeof bulkReview>;

export const BULK_STATUSES = ['PENDING', 'RUNNING', 'DONE'] as const;
export type BulkStatus = (typeof BULK_STATUSES)[number];

/** An item as the store keeps it: RUNNING while a worker holds it (answered as PENDING). */
export const BULK_ITEM_STATES = ['PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED'] as const;
export type BulkItemState = (typeof BULK_ITEM_STATES)[number];
export const BULK_ITEM_STATUSES = ['SUCCEEDED', 'FAILED', 'PENDING'] as const;
export type BulkItemStatus = (typeof BULK_ITEM_STATUSES)[number];

/**
 * The item's moves: PENDING → RUNNING (claimed) → SUCCEEDED | FAILED; a RUNNING item whose worker is
 * gone (its lease ran out) is claimed again. An ended item never moves.
 */
export const bulkItemMoves: Record<BulkItemState, readonly BulkItemState[]> = {
  PENDING: ['RUNNING'],
  RUNNING: ['RUNNING', 'SUCCEEDED', 'FAILED'],
  SUCCEEDED: [],
  FAILED: [],
};
export const bulkItemMayMove = (from: BulkItemState, to: BulkItemState) => bulkItemMoves[from].includes(to);
/** The item as answered. */
export const bulkItemStatusOf = (state: BulkItemState): BulkItemStatus => (state === 'RUNNING' ? 'PENDING' : state);

export const bulkActionIdParams = z.object({ id: z.string().max(100) });

export const bulkActionAnswer = z.object({
  id: z.string(),
  action: z.enum(BULK_ACTIONS),
  status: z.enum(BULK_STATUSES),
  total: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  items: z.array(z.object({ card_id: z.string(), status: z.enum(BULK_ITEM_STATUSES), reason: z.string().nullable() })),
});
export type BulkActionAnswer = z.infer<typeof bulkActionAnswer>;

/** The event a bulk action's figures moved by (events.ts bulkProgress). */
export interface BulkProgressEvent {
  bulk_id: string;
  action: BulkAction;
  status: BulkStatus;
  total: number;
  succeeded: number;
  failed: number;
}

/**
 * What a RECHARGE tops one card up by: `amount` each, or up to `target_balance` from what it holds
 * (nothing when it holds that already). Minor units.
 */
export function bulkRechargeAmount(params: { amount: string } | { target_balance: string }, available: bigint): bigint {
  if ('amount' in params) return toMinorUnits(params.amount);
  const target = toMinorUnits(params.target_balance);
  return target > available ? target - available : 0n;
}

/**
 * The whole cost of a RECHARGE per currency: each card's top-up and its fee, from the same helper as
 * one card's top-up (rechargeCost). Cards whose top-up is nothing cost nothing.
 */
export function bulkRechargeCost(cards: Array<{ currency: Currency; product: Parameters<typeof topupFeeRule>[0]; amount: bigint }>) {
  const byCurrency = new Map<Currency, { cards: number; amount: bigint; fee: bigint }>();
  const each = cards.map((card) => {
    if (card.amount <= 0n) return { amount: 0n, fee: 0n };
    const cost = rechargeCost(card.product, fromMinorUnits(card.amount));
    const fee = toMinorUnits(cost.fee);
    const sum = byCurrency.get(card.currency) ?? { cards: 0, amount: 0n, fee: 0n };
    byCurrency.set(card.currency, { cards: sum.cards + 1, amount: sum.amount + card.amount, fee: sum.fee + fee });
    return { amount: card.amount, fee };
  });
  return { each, byCurrency };
}
