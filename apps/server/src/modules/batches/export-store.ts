import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { cardExports, cardProducts, cards } from '../../db/schema.ts';

export type ExportRow = typeof cardExports.$inferSelect;

export async function insertExport(tx: Tx, values: typeof cardExports.$inferInsert) {
  const [row] = await tx.insert(cardExports).values(values).returning();
  if (!row) throw new Error('export insert returned nothing');
  return row;
}

/** With `heldBy`: only the exports that member made of the cards they hold (a MEMBER sees no other). */
const madeBy = (heldBy: string | undefined) => (heldBy ? sql`${cardExports.selection}->>'held_by' = ${heldBy}` : undefined);

export async function findOwnExport(tx: Tx, merchantId: string, accountId: string, id: string, heldBy?: string) {
  const [row] = await tx
    .select()
    .from(cardExports)
    .where(and(eq(cardExports.id, id), eq(cardExports.merchantId, merchantId), eq(cardExports.accountId, accountId), madeBy(heldBy)))
    .limit(1);
  return row;
}

export async function findExport(tx: Tx, id: string) {
  const [row] = await tx.select().from(cardExports).where(eq(cardExports.id, id)).limit(1);
  return row;
}

export async function recentExports(tx: Tx, merchantId: string, accountId: string, limit: number, heldBy?: string) {
  return tx
    .select()
    .from(cardExports)
    .where(and(eq(cardExports.merchantId, merchantId), eq(cardExports.accountId, accountId), madeBy(heldBy)))
    .orderBy(desc(cardExports.createdAt), desc(cardExports.id))
    .limit(limit);
}

export async function updateExport(tx: Tx, id: string, changes: Partial<Omit<ExportRow, 'id'>>, onlyIf?: { status: string[] }) {
  const [row] = await tx
    .update(cardExports)
    .set(changes)
    .where(and(eq(cardExports.id, id), onlyIf ? inArray(cardExports.status, onlyIf.status) : undefined))
    .returning();
  return row;
}

/** Written exports whose keeping time ended before `now`. */
export async function expiredExports(tx: Tx, now: Date, limit: number) {
  return tx
    .select({ id: cardExports.id, merchantId: cardExports.merchantId, accountId: cardExports.accountId })
    .from(cardExports)
    .where(and(eq(cardExports.status, 'DONE'), sql`${cardExports.expiresAt} <= ${now}`))
    .limit(limit);
}

/** Where an export's ticked cards are chosen: the account's own only; with `heldBy`, only those that member holds. */
export function exportWhere(merchantId: string, accountId: string, ids: string[], heldBy?: string) {
  return and(eq(cards.merchantId, merchantId), eq(cards.accountId, accountId), heldBy ? eq(cards.holderMemberId, heldBy) : undefined, inArray(cards.id, ids)) as SQL;
}

export async function countExportCards(tx: Tx, where: SQL) {
  const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(cards).where(where);
  return row?.n ?? 0;
}

/**
 * The next page of an export's cards, newest first as the list shows them, after the cursor (the
 * last row of the page before), in the order of the index cards_account_created.
 */
export async function exportCardsAfter(tx: Tx, where: SQL, after: { createdAt: Date; id: string } | null, limit: number) {
  return tx
    .select({ card: cards, productName: cardProducts.name })
    .from(cards)
    .innerJoin(cardProducts, eq(cardProducts.id, cards.productId))
    .where(and(where, after ? sql`(${cards.createdAt}, ${cards.id}) < (${after.createdAt}, ${after.id}::uuid)` : undefined))
    .orderBy(sql`${cards.createdAt} desc nulls last`, sql`${cards.id} desc nulls last`)
    .limit(limit);
}
