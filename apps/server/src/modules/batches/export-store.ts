import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { cardExports, cardProducts, cards } from '../../db/schema.ts';

export type ExportRow = typeof cardExports.$inferSelect;

/** The card list's filters an export may be chosen by. */
export interface ExportCardFilter {
  status?: string | undefined;
  productId?: string | undefined;
  keyword?: string | undefined;
}

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

/**
 * Where an export's cards are chosen: the list's filters, or the ids ticked (the account's own only;
 * with `heldBy`, only those that member holds).
 */
export function exportWhere(merchantId: string, accountId: string, filter: ExportCardFilter, ids: string[] | undefined, heldBy?: string) {
  const keyword = filter.keyword?.trim();
  const like = keyword ? `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const held = heldBy ? eq(cards.holderMemberId, heldBy) : undefined;
  if (ids) return and(eq(cards.merchantId, merchantId), eq(cards.accountId, accountId), held, inArray(cards.id, ids));
  return and(
    eq(cards.merchantId, merchantId),
    eq(cards.accountId, accountId),
    held,
    filter.status ? eq(cards.status, filter.status) : undefined,
    filter.productId ? eq(cards.productId, filter.productId) : undefined,
    like
      ? keyword && /^\d{4}$/.test(keyword)
        ? sql`(${cards.last4} = ${keyword} or ${cards.nickname} ilike ${like})`
        : sql`${cards.nickname} ilike ${like}`
      : undefined,
  );
}

export async function countExportCards(tx: Tx, where: ReturnType<typeof exportWhere>) {
  const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(cards).where(where);
  return row?.n ?? 0;
}

/**
 * The next page of an export's cards, newest first as the list shows them, after the cursor (the
 * last row of the page before), in the order of the index cards_account_created.
 */
export async function exportCardsAfter(tx: Tx, where: ReturnType<typeof exportWhere>, after: { createdAt: Date; id: string } | null, limit: number) {
  return tx
    .select({ card: cards, productName: cardProducts.name })
    .from(cards)
    .innerJoin(cardProducts, eq(cardProducts.id, cards.productId))
    .where(and(where, after ? sql`(${cards.createdAt}, ${cards.id}) < (${after.createdAt}, ${after.id}::uuid)` : undefined))
    .orderBy(sql`${cards.createdAt} desc nulls last`, sql`${cards.id} desc nulls last`)
    .limit(limit);
}
