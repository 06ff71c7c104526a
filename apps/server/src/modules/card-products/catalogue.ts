import type { CardBrand, CardProduct, ProductStatus } from '@portal/contract/cards';
import { BIN_PATTERN, CARD_BRANDS, FEE_RATE_PATTERN, PRODUCT_STATUSES } from '@portal/contract/cards';
import { CURRENCIES, type Currency } from '@portal/contract/enums';
import { fromMinorUnits } from '@portal/contract/money';
import type { Db, Tx } from '../../db/engine.ts';
import type { Clock } from '../../lib/clock.ts';
import { isUniqueViolation, Refused } from '../../lib/refused.ts';
import { findProduct, insertProduct, listProducts, type NewProduct, nextPosition, type ProductRow, updateProduct } from './store.ts';

/** What a product may be set to (amounts in minor units; null min/max: no bound). */
export type ProductValues = Omit<NewProduct, 'merchantId'>;

/** What a caller of `update` adds to it: its own refusals, and what it writes in the change's transaction. */
export interface ProductUpdateHooks {
  notFound?: () => Error;
  nameTaken?: () => Error;
  check?: (before: ProductRow, merged: ProductValues) => void;
  within?: (tx: Tx, change: { before: ProductRow; after: ProductRow }) => Promise<void>;
}

/** The largest number of cards one batch may open (product.md §5). */
export const MAX_BATCH = 500;

export function productView(row: ProductRow): CardProduct {
  const money = (units: bigint | null) => (units === null ? null : fromMinorUnits(units));
  return {
    id: row.id,
    name: row.name,
    brand: row.brand as CardBrand,
    bin: row.bin,
    currency: row.currency as Currency,
    open_fee: fromMinorUnits(row.openFee),
    topup_fee_rate: row.topupFeeRate,
    topup_fee_fixed: fromMinorUnits(row.topupFeeFixed),
    topup_fee_min: money(row.topupFeeMin),
    topup_fee_max: money(row.topupFeeMax),
    min_first_load: fromMinorUnits(row.minFirstLoad),
    max_balance: fromMinorUnits(row.maxBalance),
    decline_fee: fromMinorUnits(row.declineFee),
    per_account_limit: row.perAccountLimit,
    max_per_batch: row.maxPerBatch,
    needs_secondary: row.needsSecondary,
    status: row.status as ProductStatus,
  };
}

/** The rules a product keeps, whoever sets it; each refusal says what to change. */
function checkProduct(product: ProductValues) {
  const problems: string[] = [];
  if ([...product.name].length < 2 || [...product.name].length > 30) problems.push('the name is 2–30 characters');
  if (!(CARD_BRANDS as readonly string[]).includes(product.brand)) problems.push(`the brand is one of ${CARD_BRANDS.join(', ')}`);
  if (!BIN_PATTERN.test(product.bin)) problems.push('the BIN is 6 to 8 digits');
  if (!(CURRENCIES as readonly string[]).includes(product.currency)) problems.push(`the currency is one of ${CURRENCIES.join(', ')}`);
  if (!FEE_RATE_PATTERN.test(product.topupFeeRate)) problems.push('the top-up fee rate is a fraction below 1 with up to 6 decimals, e.g. 0.015');
  const { topupFeeMin: min, topupFeeMax: max } = product;
  if (min !== null && min !== undefined && max !== null && max !== undefined && min > max) problems.push('the top-up fee minimum is not above its maximum');
  if (product.maxBalance <= 0n) problems.push('the maximum balance is above 0');
  if (product.minFirstLoad > product.maxBalance) problems.push('the minimum first load is not above the maximum balance');
  if (!Number.isInteger(product.perAccountLimit) || product.perAccountLimit < 1) problems.push('the per-account limit is at least 1');
  if (!Number.isInteger(product.maxPerBatch) || product.maxPerBatch < 1 || product.maxPerBatch > MAX_BATCH) {
    problems.push(`the batch limit is 1 to ${MAX_BATCH}`);
  }
  if (!(PRODUCT_STATUSES as readonly string[]).includes(product.status ?? 'ON')) problems.push('the status is ON or OFF');
  if (problems.length > 0) throw new Refused(`the product would break its rules: ${problems.join('; ')}`);
}

/** The merchant's card products: listed, added and changed by its operators, each keeping its rules. */
export function createProductCatalogue({ db, clock }: { db: Db; clock: Clock }) {
  return {
    /** The merchant's products in the order the portal lists them, OFF ones included. */
    list: (merchantId: string) => listProducts(db, merchantId),

    /**
     * Adds a product to the merchant, listed after its others unless given a position; its name is unique
     * there. A caller with refusals of its own passes `hooks` (as `update` takes them): `within` runs in
     * the insert's transaction (its audit row).
     */
    async create(merchantId: string, values: ProductValues, hooks: Pick<ProductUpdateHooks, 'nameTaken'> & { within?: (tx: Tx, created: ProductRow) => Promise<void> } = {}) {
      checkProduct(values);
      try {
        return await db.transaction(async (tx) => {
          const position = values.position ?? (await nextPosition(tx, merchantId));
          const created = await insertProduct(tx, { ...values, position, merchantId });
          await hooks.within?.(tx, created);
          return created;
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw hooks.nameTaken?.() ?? new Refused(`the merchant has a product named ${values.name} already; choose another name`);
        throw error;
      }
    },

    /**
     * Changes a product of the merchant; the whole product must still keep its rules. A caller with
     * refusals of its own (the console's 中文 ones) passes `hooks`: `check` sees the product as it would
     * be before anything is written, and `within` runs in the change's transaction (its audit row).
     */
    async update(merchantId: string, which: { id: string } | { name: string }, changes: Partial<ProductValues>, hooks: ProductUpdateHooks = {}) {
      return db.transaction(async (tx) => {
        const before = await findProduct(tx, merchantId, which);
        if (!before) throw hooks.notFound?.() ?? new Refused(`the merchant has no product ${'id' in which ? `with the id ${which.id}` : `named ${which.name}`} (product:list shows them)`);
        const { id: _id, merchantId: _merchantId, createdAt: _createdAt, updatedAt: _updatedAt, ...current } = before;
        hooks.check?.(before, { ...current, ...changes });
        checkProduct({ ...current, ...changes });
        try {
          const after = await updateProduct(tx, merchantId, before.id, changes, clock.now());
          if (!after) throw new Refused('the product was removed meanwhile');
          await hooks.within?.(tx, { before, after });
          return { before, after };
        } catch (error) {
          if (isUniqueViolation(error)) throw hooks.nameTaken?.() ?? new Refused(`the merchant has a product named ${changes.name} already; choose another name`);
          throw error;
        }
      });
    },
  };
}

export type ProductCatalogue = ReturnType<typeof createProductCatalogue>;
