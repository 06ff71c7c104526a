import { cardAmountRule, openingCost, rechargeCost } from '@portal/contract/cards';
import type { ConsoleProduct, ProductChangeBody } from '@portal/contract/console-admin';
import { formatAmount } from '@portal/contract/money-format';
import { fill } from '../../locales/zh-CN.ts';
import { adminText } from '../../locales/zh-CN-admin.ts';

/** A product's form as typed, in the new-product and the edit drawers: amounts as text, a bound left empty for none. */
export interface ProductFormValues {
  name: string;
  status: 'ON' | 'OFF';
  open_fee: string;
  topup_fee_rate: string;
  topup_fee_fixed: string;
  topup_fee_min?: string;
  topup_fee_max?: string;
  min_first_load: string;
  max_balance: string;
  decline_fee: string;
  per_account_limit: number;
  max_per_batch: number;
  needs_secondary: boolean;
}

/** A fee bound as the calls take it: left empty (or never typed) is none. */
export const boundOf = (value: string | undefined) => (value === undefined || value.trim() === '' ? null : value.trim());

const t = adminText.products;

/** "1.5% + 0.30 USD（下限 1.00，上限 不限）" */
export function feeRuleText(product: Pick<ConsoleProduct, 'topup_fee_rate' | 'topup_fee_fixed' | 'topup_fee_min' | 'topup_fee_max'>) {
  const percent = formatPercent(product.topup_fee_rate);
  return `${fill(t.feeRule, { rate: percent, fixed: formatAmount(product.topup_fee_fixed) })}（${t.min} ${product.topup_fee_min === null ? t.noBound : formatAmount(product.topup_fee_min)}，${t.max} ${product.topup_fee_max === null ? t.noBound : formatAmount(product.topup_fee_max)}）`;
}

/** A fee rate fraction ("0.015") as a percentage ("1.5"), exactly: the decimal point moved two places. */
export function formatPercent(rate: string) {
  const [whole = '0', fraction = ''] = rate.split('.');
  const digits = `${whole}${fraction.padEnd(2, '0')}`;
  const percentWhole = String(Number.parseInt(digits.slice(0, whole.length + 2), 10));
  const rest = digits.slice(whole.length + 2).replace(/0+$/, '');
  return rest ? `${percentWhole}.${rest}` : percentWhole;
}

/** What a customer pays and gets for `amount` under the product as it would be with `values`; null for no amount yet. */
export function previewOf(product: ConsoleProduct, values: Partial<ProductChangeBody>, amount: string) {
  if (amount.trim() === '' || cardAmountRule(amount) !== null) return null;
  const rule = { ...product, ...values } as ConsoleProduct;
  try {
    return { opening: openingCost(rule, amount), recharge: rechargeCost(rule, amount) };
  } catch {
    return null;
  }
}

