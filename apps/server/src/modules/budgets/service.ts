import { chinaWallClock } from '@portal/contract/date-time';
import type { Role } from '@portal/contract/enums';
import { fromMinorUnits } from '@portal/contract/money';
import { spendsWithinBudget, teamLimits } from '@portal/contract/team';
import { TeamErrorCode } from '@portal/contract/team-errors';
import type { Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import { addUsageWithin, memberBudgetOf, reduceUsage, usageOf } from './store.ts';

/**
 * A member's monthly budget (shared/design/growing-customers.md §1): what the cards they hold take from
 * the wallet in a China-time month — opening costs and top-ups, less withdrawals — counted in the same
 * transaction as the money moves. Only movements in the budget's currency count; a member whose role
 * has no budget, or who was given none, uses nothing.
 */

/** The China-time month of `at`: YYYY-MM. */
export const budgetMonth = (at: Date) => chinaWallClock(at).toISOString().slice(0, 7);

const counted = (currency: string) => currency === teamLimits.budgetCurrency;

/** The member's budget, when their cards' movements count against one. */
async function budgetOf(tx: Tx, memberId: string) {
  const member = await memberBudgetOf(tx, memberId);
  if (!member || member.budget === null || !spendsWithinBudget(member.role as Role)) return undefined;
  return member.budget;
}

/**
 * Uses `amount` (minor units of `currency`) of the holder's budget for the month of `at`, or refuses
 * with BUDGET_EXCEEDED and what is left; checked and used in one statement, inside the caller's
 * transaction, so calls at once never pass the budget together and a refusal leaves nothing behind.
 */
export async function useBudget(tx: Tx, holderMemberId: string, amount: bigint, currency: string, at: Date) {
  if (!counted(currency) || amount <= 0n) return;
  const budget = await budgetOf(tx, holderMemberId);
  if (budget === undefined) return;
  const month = budgetMonth(at);
  if ((await addUsageWithin(tx, holderMemberId, month, amount, budget)) !== undefined) return;
  const used = await usageOf(tx, holderMemberId, month);
  const left = fromMinorUnits(budget > used ? budget - used : 0n);
  throw new AppError(TeamErrorCode.BUDGET_EXCEEDED, { params: { left, currency: teamLimits.budgetCurrency }, data: { left, currency: teamLimits.budgetCurrency } });
}

/**
 * Gives `amount` back to the holder's budget for the month of `at` (a withdrawal; an opening that
 * failed, in the month it was asked): never below nothing used.
 */
export async function giveBackBudget(tx: Tx, holderMemberId: string, amount: bigint, currency: string, at: Date) {
  if (!counted(currency) || amount <= 0n) return;
  if ((await budgetOf(tx, holderMemberId)) === undefined) return;
  await reduceUsage(tx, holderMemberId, budgetMonth(at), amount);
}

/**
 * Refuses with BUDGET_EXCEEDED, as useBudget would, when `amount` is more than what is left of the
 * member's budget this month once `promised` (money already accepted for their cards, not yet moved:
 * a bulk top-up still at work) is counted as used; uses nothing (each movement then uses its own share
 * as it moves).
 */
export async function checkBudget(tx: Tx, memberId: string, amount: bigint, currency: string, at: Date, promised = 0n) {
  if (!counted(currency) || amount <= 0n) return;
  const budget = await budgetOf(tx, memberId);
  if (budget === undefined) return;
  const used = (await usageOf(tx, memberId, budgetMonth(at))) + promised;
  if (used + amount <= budget) return;
  const left = fromMinorUnits(budget > used ? budget - used : 0n);
  throw new AppError(TeamErrorCode.BUDGET_EXCEEDED, { params: { left, currency: teamLimits.budgetCurrency }, data: { left, currency: teamLimits.budgetCurrency } });
}
