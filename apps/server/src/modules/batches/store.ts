import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { cardBatches, cards } from '../../db/schema.ts';

/** A card row as a batch makes it. */
export type NewCard = typeof cards.$inferInsert;

export type BatchRow = typeof cardBatches.$inferSelect;

// ── batches ──

export async function insertBatch(tx: Tx, values: typeof cardBatches.$inferInsert) {
  const [row] = await tx.insert(cardBatches).values(values).returning();
  if (!row) throw new Error('batch insert returned nothing');
  return row;
}

/** The batch's cards in one statement. */
export async function insertCards(tx: Tx, values: NewCard[]) {
  if (values.length > 0) await tx.insert(cards).values(values);
}

export async function findBatchByKey(tx: Tx, merchantId: string, accountId: string, key: string) {
  const [row] = await tx
    .select()
    .from(cardBatches)
    .where(and(eq(cardBatches.merchantId, merchantId), eq(cardBatches.accountId, accountId), eq(cardBatches.openKey, key)))
    .limit(1);
  return row;
}

/** The account's running batch, else its latest; with `startedBy`, of the batches that member started only. */
export async function findCurrentBatch(tx: Tx, merchantId: string, accountId: string, startedBy?: string) {
  const [row] = await tx
    .select()
    .from(cardBatches)
    .where(
      and(
        eq(cardBatches.merchantId, merchantId),
        eq(cardBatches.accountId, accountId),
        startedBy === undefined ? undefined : eq(cardBatches.startedBy, startedBy),
      ),
    )
    .orderBy(sql`(${cardBatches.status} = 'RUNNING') desc`, desc(cardBatches.createdAt))
    .limit(1);
  return row;
}

export async function findRunningBatch(tx: Tx, accountId: string) {
  const [row] = await tx
    .select({ id: cardBatches.id })
    .from(cardBatches)
    .where(and(eq(cardBatches.accountId, accountId), eq(cardBatches.status, 'RUNNING')))
    .limit(1);
  return row;
}

export async function lockBatch(tx: Tx, id: string) {
  const [row] = await tx.select().from(cardBatches).where(eq(cardBatches.id, id)).for('update');
  return row;
}

export async function updateBatch(tx: Tx, id: string, changes: Partial<Omit<BatchRow, 'id'>>) {
  const [row] = await tx.update(cardBatches).set(changes).where(eq(cardBatches.id, id)).returning();
  if (!row) throw new Error(`batch ${id} vanished`);
  return row;
}

/** The batch's failed cards, in nickname order, with why. */
export async function failedCardsOf(tx: Tx, batchId: string) {
  return tx
    .select({ nickname: cards.nickname, reason: cards.failureReason })
    .from(cards)
    .where(and(eq(cards.batchId, batchId), eq(cards.status, 'FAIL')))
    .orderBy(asc(cards.nickname));
}

export async function findCard(tx: Tx, id: string) {
  const [row] = await tx.select().from(cards).where(eq(cards.id, id)).limit(1);
  return row;
}

/** The batches' status and figures now. */
export async function batchesNow(tx: Tx, ids: string[]) {
  if (ids.length === 0) return [];
  return tx
    .select({ id: cardBatches.id, status: cardBatches.status, successCount: cardBatches.successCount, failCount: cardBatches.failCount, quantity: cardBatches.quantity })
    .from(cardBatches)
    .where(inArray(cardBatches.id, ids));
}
