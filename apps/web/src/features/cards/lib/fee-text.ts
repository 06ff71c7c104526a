import type { CardProduct } from '@portal/contract/cards';
import { toMinorUnits } from '@portal/contract/money';
import { formatAmount } from '../../../lib/money-format.ts';
import { cardCreateText } from '../../../locales/zh-CN/card-create.ts';
import { ratePercent } from './card-format.ts';

/** A set bound or fixed part of a fee, or null when the product has none (null, empty, negative, zero fixed). */
const shown = (text: string | null, { zero }: { zero: boolean }) => {
  if (text === null || text.trim() === '') return null;
  const units = toMinorUnits(text);
  if (units < 0n || (!zero && units === 0n)) return null;
  return formatAmount(text);
};

/** A top-up fee rule (a product's, or the terms a card was opened under) as a customer reads it: "1.5%（最低 0.50，最高 50.00）", "1% + 0.30 USD". */
export const topupFeeText = (product: Pick<CardProduct, 'topup_fee_rate' | 'topup_fee_fixed' | 'topup_fee_min' | 'topup_fee_max' | 'currency'>) =>
  cardCreateText.feeRule(
    ratePercent(product.topup_fee_rate),
    shown(product.topup_fee_fixed, { zero: false }),
    shown(product.topup_fee_min, { zero: false }),
    shown(product.topup_fee_max, { zero: true }),
    product.currency,
  );
