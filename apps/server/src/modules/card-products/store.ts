import { and, asc, count, eq, max, notInArray } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { cardProducts, cards, cardVerifications } from '../../db/schema.ts';

export type ProductRow = typeof cardProducts.$inferSelect;
export type NewProduct = Omit<typeof cardProducts.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;
export type VerificationRow = typeof cardVerifications.$inferSelect;

export async function listProducts(tx: Tx, merchantId: string) {
  return tx.select().from(cardProducts).where(eq(cardProducts.merchantId, merchantId)).orderBy(asc(cardProducts.position), asc(cardProducts.createdAt));
}

export async function findProduct(tx: Tx, merchantId: string, which: { id: string } | { name: string }) {
  const match = 'id' in which ? eq(cardProducts.id, which.id) : eq(cardProducts.name, which.name);
  const [row] = await tx.select().from(cardProducts).where(and(eq(cardProducts.merchantId, merchantId), match)).limit(1);
  return row;
}

export async function insertProduct(tx: Tx, values: NewProduct) {
  const [row] = await tx.insert(cardProducts).values(values).returning();
  if (!row) throw new Error('product insert returned nothing');
  return row;
}

/** The position after the merchant's last product: where a new one is listed. */
export async function nextPosition(tx: Tx, merchantId: string) {
  const [row] = await tx
    .select({ last: max(cardProducts.position) })
    .from(cardProducts)
    .where(eq(cardProducts.merchantId, merchantId));
  return (row?.last ?? -1) + 1;
}

/** Changes a product of the merchant, locking its row until commit; undefined when there is none. */
export async function updateProduct(tx: Tx, merchantId: string, id: string, changes: Partial<NewProduct>, at: Date) {
  const [row] = await tx
    .update(cardProducts)
    .set({ ...changes, updatedAt: at })
    .where(and(eq(cardProducts.merchantId, merchantId), eq(cardProducts.id, id)))
    .returning();
  return row;
}

export async function findVerification(tx: Tx, merchantId: string, accountId: string) {
  const [row] = await tx
    .select()
    .from(cardVerifications)
    .where(and(eq(cardVerifications.merchantId, merchantId), eq(cardVerifications.accountId, accountId)))
    .limit(1);
  return row;
}

/** Writes the pairs given (a pair not given keeps what it had). */
export async function saveVerification(tx: Tx, row: Pick<VerificationRow, 'accountId' | 'merchantId'> & Partial<VerificationRow>) {
  const { accountId: _accountId, merchantId: _merchantId, ...changes } = row;
  const [saved] = await tx
    .insert(cardVerifications)
    .values(row)
    .onConflictDoUpdate({ target: cardVerifications.accountId, set: changes })
    .returning();
  if (!saved) throw new Error('verification upsert returned nothing');
  return saved;
}

/** Locks the account's verification row: opening cards of one account is done one at a time (the quota). */
export async function lockVerification(tx: Tx, merchantId: string, accountId: string) {
  const [row] = await tx
    .select()
    .from(cardVerifications)
    .where(and(eq(cardVerifications.merchantId, merchantId), eq(cardVerifications.accountId, accountId)))
    .for('update');
  return row;
}

/** Statuses whose cards count against a product's per-account limit (failed and cancelled ones do not). */
const UNCOUNTED = ['FAIL', 'DELETE'];

export async function countOpenCards(tx: Tx, accountId: string, productId: string) {
  const [row] = await tx
    .select({ n: count() })
    .from(cards)
    .where(and(eq(cards.accountId, accountId), eq(cards.productId, productId), notInArray(cards.status, UNCOUNTED)));
  return row?.n ?? 0;
}

/** How many cards the account holds of each product, those counting against the limit. */
export async function openCardsByProduct(tx: Tx, merchantId: string, accountId: string) {
  const rows = await tx
    .select({ productId: cards.productId, n: count() })
    .from(cards)
    .where(and(eq(cards.merchantId, merchantId), eq(cards.accountId, accountId), notInArray(cards.status, UNCOUNTED)))
    .groupBy(cards.productId);
  return new Map(rows.map((row) => [row.productId, row.n]));
}
