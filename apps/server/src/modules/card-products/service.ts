import type { OpenedAvailableAnswer } from '@portal/contract/cards';
import type { Db, Tx } from '../../db/engine.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Sealer } from '../../lib/sealed.ts';
import { createProductCatalogue, productView } from './catalogue.ts';
import { checkHolder, checkQuota, productToOpen } from './opening-checks.ts';
import { findProduct, findVerification, listProducts, lockVerification, openCardsByProduct } from './store.ts';
import { verificationPart } from './verification.ts';

export type { ProductUpdateHooks, ProductValues } from './catalogue.ts';
export { MAX_BATCH, productView } from './catalogue.ts';
export type { ProductRow, VerificationRow } from './store.ts';

/**
 * What a holder may open: the merchant's card products (its operators' catalogue), what the holder has
 * given before opening cards, and the checks every opening passes — one card or a batch — against both
 * and the product's quota.
 */
export function createCardProductService({ db, clock, sealer }: { db: Db; clock: Clock; sealer: Sealer }) {
  const catalogue = createProductCatalogue({ db, clock });
  return {
    ...catalogue,
    ...verificationPart({ db, clock, sealer }),

    /** A product of the merchant, read inside `tx` when given (an event's transaction). */
    find: (merchantId: string, which: { id: string } | { name: string }, tx: Tx = db) => findProduct(tx, merchantId, which),

    /** GET /card/opened-available: what the account has given, and each product it may open now with how many more. */
    async openedAvailable(merchantId: string, accountId: string): Promise<OpenedAvailableAnswer> {
      // one after another: `db` may be a transaction, whose one connection takes one query at a time
      const verification = await findVerification(db, merchantId, accountId);
      const products = await listProducts(db, merchantId);
      const held = await openCardsByProduct(db, merchantId, accountId);
      return {
        verification: { basic: Boolean(verification?.basicAt), secondary: Boolean(verification?.secondaryAt) },
        products: products
          .filter((product) => product.status === 'ON')
          .map((product) => ({ ...productView(product), remaining: Math.max(0, product.perAccountLimit - (held.get(product.id) ?? 0)) })),
      };
    },

    /** The product to open with the first load's bounds checked, and each card's cost (opening-checks.ts). */
    productToOpen: (merchantId: string, productId: string, amount: string) => productToOpen(db, merchantId, productId, amount),
    /** The holder's verification row, locked: the account's openings one at a time (the quota is counted under it). */
    lockHolder: (tx: Tx, merchantId: string, accountId: string) => lockVerification(tx, merchantId, accountId),
    checkHolder,
    checkQuota,
    /** The holder's names as the issuer is told them. */
    async holderOf(merchantId: string, accountId: string) {
      const verification = await findVerification(db, merchantId, accountId);
      return { real_name: verification?.realName ?? '', latin_name: verification?.latinName ?? null };
    },
  };
}

export type CardProductService = ReturnType<typeof createCardProductService>;
