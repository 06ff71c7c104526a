import { openingCost } from '@portal/contract/cards';
import { CardErrorCode } from '@portal/contract/card-errors';
import type { Currency } from '@portal/contract/enums';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import type { Db, Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import { isUuid } from '../../lib/uuid.ts';
import { productView } from './catalogue.ts';
import { countOpenCards, findProduct, type ProductRow, type VerificationRow } from './store.ts';

/**
 * The checks every opening passes, one card or a batch of them, in the order a refusal names the first
 * that fails: the product on sale, the first load within its bounds; the holder verified as the product
 * asks; the product's per-account quota.
 */

/** The product to open, on sale, with `amount` (text, as given) as the first load of each card; its cost in minor units. */
export async function productToOpen(db: Db, merchantId: string, productId: string, amountText: string) {
  const amount = toMinorUnits(amountText);
  const product = isUuid(productId) ? await findProduct(db, merchantId, { id: productId }) : undefined;
  if (product?.status !== 'ON') throw new AppError(CardErrorCode.PRODUCT_UNAVAILABLE);
  const currency = product.currency as Currency;
  if (amount < product.minFirstLoad) {
    const min = fromMinorUnits(product.minFirstLoad);
    throw new AppError(CardErrorCode.CARD_AMOUNT_BELOW_MIN, { params: { min, currency }, data: { min, currency } });
  }
  if (amount > product.maxBalance) {
    const max = fromMinorUnits(product.maxBalance);
    throw new AppError(CardErrorCode.CARD_BALANCE_ABOVE_MAX, { params: { max, currency }, data: { max, currency, balance: '0.00' } });
  }
  const cost = openingCost(productView(product), amountText);
  return { product, currency, amount, openFee: toMinorUnits(cost.open_fee), topupFee: toMinorUnits(cost.topup_fee), feeTerms: feeTermsOf(product) };
}

/** The product's fee terms as a card opened now keeps them (the card's columns of the same names). */
export const feeTermsOf = (product: ProductRow) => ({
  topupFeeRate: product.topupFeeRate,
  topupFeeFixed: product.topupFeeFixed,
  topupFeeMin: product.topupFeeMin,
  topupFeeMax: product.topupFeeMax,
  declineFee: product.declineFee,
});

/** The holder has given what the product asks (the basic pair always, the secondary one when the product needs it). */
export function checkHolder(product: Pick<ProductRow, 'needsSecondary'>, verification: VerificationRow | undefined): asserts verification is VerificationRow & { realName: string } {
  if (!verification?.basicAt || !verification.realName) throw new AppError(CardErrorCode.CARD_NOT_VERIFIED);
  if (product.needsSecondary && !verification.secondaryAt) throw new AppError(CardErrorCode.CARD_SECONDARY_REQUIRED);
}

/**
 * `quantity` more cards of the product stay within its per-account quota; counted inside `tx` under the
 * holder's verification lock, so two openings never both take the last one. A batch's refusal also
 * says how many are left.
 */
export async function checkQuota(tx: Tx, accountId: string, product: Pick<ProductRow, 'id' | 'perAccountLimit'>, quantity: number, { sayRemaining = false } = {}) {
  const remaining = product.perAccountLimit - (await countOpenCards(tx, accountId, product.id));
  if (quantity <= remaining) return;
  const limit = product.perAccountLimit;
  throw new AppError(CardErrorCode.CARD_QUOTA_USED, { params: { limit }, data: sayRemaining ? { limit, remaining: Math.max(0, remaining) } : { limit } });
}
