import { and, desc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { agreements } from '../../db/schema.ts';

export async function listAgreementTitles(tx: Tx, merchantId: string) {
  return tx
    .select({ id: agreements.id, title: agreements.title })
    .from(agreements)
    .where(eq(agreements.merchantId, merchantId))
    .orderBy(desc(agreements.publishedAt), desc(agreements.id));
}

/** The merchant's agreements, newest first, with when each was published and its length. */
export async function listAgreements(tx: Tx, merchantId: string) {
  return tx
    .select({ id: agreements.id, title: agreements.title, publishedAt: agreements.publishedAt, characters: sql<number>`char_length(${agreements.text})::int` })
    .from(agreements)
    .where(eq(agreements.merchantId, merchantId))
    .orderBy(desc(agreements.publishedAt), desc(agreements.id));
}

export async function findAgreement(tx: Tx, merchantId: string, id: string) {
  const rows = await tx
    .select({ id: agreements.id, title: agreements.title, text: agreements.text })
    .from(agreements)
    .where(and(eq(agreements.merchantId, merchantId), eq(agreements.id, id)))
    .limit(1);
  return rows[0];
}

export async function insertAgreement(tx: Tx, values: typeof agreements.$inferInsert) {
  const [row] = await tx.insert(agreements).values(values).returning();
  if (!row) throw new Error('agreement insert returned nothing');
  return row;
}

/**
 * Adds an agreement that lists first: its time is the statement's own clock, not the transaction's,
 * so agreements published one after another never tie.
 */
export async function publishAgreement(tx: Tx, values: { merchantId: string; title: string; text: string }) {
  const [row] = await tx
    .insert(agreements)
    .values({ ...values, publishedAt: sql`clock_timestamp()` })
    .returning();
  if (!row) throw new Error('agreement insert returned nothing');
  return row;
}
