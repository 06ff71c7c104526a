import type { CardItem, CardTransactionItem } from '@portal/contract/cards';
import { countryName, type DeclineFixAction, declineReasons } from '@portal/contract/card-spending';
import { merchantCategoryName } from '@portal/contract/merchant-categories';
import { cardSpendingText } from '../../../locales/zh-CN/card-spending.ts';

/** A merchant's category by its 中文 name (ISO 18245); its code only in the tooltip (categoryTitle). */
export const categoryText = (mcc: string | null | undefined) => (mcc ? merchantCategoryName(mcc) : null);

/** The tooltip of a category: its code, "MCC 7311". */
export const categoryTitle = (mcc: string | null | undefined) => (mcc ? cardSpendingText.transactions.mcc(mcc) : undefined);

/** A country by its 中文 name; its code only in the tooltip. */
export const countryText = (country: string | null | undefined) => (country ? countryName(country) : null);

export interface Decline {
  reason: string;
  fix: string | null;
  action: DeclineFixAction;
}

/**
 * Why a failed transaction was declined and what to do about it: the server's words first (they are
 * the contract's), the contract's own for a code without them, nothing for a row that is no decline.
 */
export function declineOf(item: Pick<CardTransactionItem, 'status' | 'decline_reason' | 'decline_code' | 'decline_fix'>): Decline | null {
  if (item.status !== 'FAIL') return null;
  const known = item.decline_code ? declineReasons[item.decline_code] : undefined;
  const reason = item.decline_reason || known?.reason;
  if (!reason) return null;
  return { reason, fix: item.decline_fix || known?.fix || null, action: known?.action ?? 'NONE' };
}

/** Whether the fix's button can do anything for the card as it is now. */
export function canFix(action: DeclineFixAction, card: Pick<CardItem, 'actions' | 'status'>): boolean {
  if (action === 'RECHARGE') return card.actions.includes('RECHARGE');
  if (action === 'UNFREEZE') return card.actions.includes('UNFREEZE');
  if (action === 'CONTROLS') return card.status !== 'DELETE' && card.status !== 'DELETING' && card.status !== 'FAIL' && card.status !== 'CARD_STATUS_INIT';
  return false;
}

/** A share 0–1 as a percentage: one decimal below 10 %, whole above. */
export function percentText(rate: number): string {
  const percent = Math.min(1, Math.max(0, rate)) * 100;
  if (percent === 0) return '0%';
  return percent < 10 ? `${(Math.round(percent * 10) / 10).toString()}%` : `${Math.round(percent)}%`;
}
