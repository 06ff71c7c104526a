import { cardAmountRule, cardMessages, type OpenedAvailableAnswer, type openingCost } from '@portal/contract/cards';
import { formatMessage } from '@portal/contract/errors';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import type { AvailableProduct } from '../../../domain/cards/api/get-opened-available.ts';

/** What is wrong with a first load for a product, in the contract's words; null when it may be sent. */
export function firstLoadProblem(product: Pick<AvailableProduct, 'min_first_load' | 'max_balance' | 'currency'>, amount: string): string | null {
  const rule = cardAmountRule(amount);
  if (rule) return rule;
  const units = toMinorUnits(amount);
  if (units < toMinorUnits(product.min_first_load)) return formatMessage(cardMessages.belowFirstLoad, { min: product.min_first_load, currency: product.currency });
  if (units > toMinorUnits(product.max_balance)) return formatMessage(cardMessages.aboveMaxBalance, { max: product.max_balance, currency: product.currency });
  return null;
}

export type OpeningCost = ReturnType<typeof openingCost>;

/** Why a card cannot be opened now, each told before the customer confirms. */
export type OpeningBlocker =
  | { kind: 'walletFrozen' }
  | { kind: 'productOff' }
  | { kind: 'quotaUsed'; limit: number }
  | { kind: 'secondary' }
  | { kind: 'quotaShort'; remaining: number }
  | { kind: 'overBatchMax'; max: number }
  | { kind: 'batchRunning'; done: number; total: number }
  | { kind: 'insufficient'; total: string; available: string };

export interface OpeningState {
  product: AvailableProduct;
  verification: OpenedAvailableAnswer['verification'];
  walletFrozen: boolean;
  /** the wallet's available money in the product's currency; undefined while unknown */
  available: string | undefined;
  /** the cost of a valid first load, else null */
  cost: OpeningCost | null;
  /** cards opened at once (1 unless a batch) */
  quantity?: number;
  /** the account's batch still running, if any: one at a time */
  runningBatch?: { done: number; total: number } | null;
}

/** What `quantity` cards cost in all: each card's total (contract openingCost) times the count. */
export const batchTotal = (cost: OpeningCost, quantity: number) => fromMinorUnits(toMinorUnits(cost.total) * BigInt(Math.max(1, quantity)));

/** What stands in the way of opening, in the order the screen tells it. */
export function openingBlockers({ product, verification, walletFrozen, available, cost, quantity = 1, runningBatch = null }: OpeningState): OpeningBlocker[] {
  const blockers: OpeningBlocker[] = [];
  if (walletFrozen) blockers.push({ kind: 'walletFrozen' });
  if (product.status === 'OFF') blockers.push({ kind: 'productOff' });
  else if (product.remaining <= 0) blockers.push({ kind: 'quotaUsed', limit: product.per_account_limit });
  else if (quantity > product.remaining) blockers.push({ kind: 'quotaShort', remaining: product.remaining });
  if (quantity > 1 && quantity > product.max_per_batch) blockers.push({ kind: 'overBatchMax', max: product.max_per_batch });
  if (quantity > 1 && runningBatch) blockers.push({ kind: 'batchRunning', ...runningBatch });
  if (product.needs_secondary && !verification.secondary) blockers.push({ kind: 'secondary' });
  const total = cost ? batchTotal(cost, quantity) : null;
  if (total !== null && available !== undefined && toMinorUnits(total) > toMinorUnits(available)) {
    blockers.push({ kind: 'insufficient', total, available });
  }
  return blockers;
}

/** The wallet's available money after paying `total`: negative when it is not enough. */
export const availableAfter = (available: string, total: string) => fromMinorUnits(toMinorUnits(available) - toMinorUnits(total));
