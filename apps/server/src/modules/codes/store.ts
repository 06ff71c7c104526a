import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { verificationCodes } from '../../db/schema.ts';

export type CodeRow = typeof verificationCodes.$inferSelect;

/** Serialises code sends and checks for one target within the transaction. */
export async function lockTarget(tx: Tx, merchantId: string, target: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${merchantId}|${target}`}))`);
}

export async function newestCode(tx: Tx, merchantId: string, target: string, purpose: string) {
  const rows = await tx
    .select()
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.merchantId, merchantId),
        eq(verificationCodes.target, target),
        eq(verificationCodes.purpose, purpose),
      ),
    )
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1);
  return rows[0];
}

/** The codes sent to a target since a time (any purpose), oldest first. */
export async function codesToTargetSince(tx: Tx, merchantId: string, target: string, since: Date) {
  return tx
    .select({ createdAt: verificationCodes.createdAt })
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.merchantId, merchantId),
        eq(verificationCodes.target, target),
        gt(verificationCodes.createdAt, since),
      ),
    )
    .orderBy(verificationCodes.createdAt);
}

export async function codesFromIpSince(tx: Tx, ip: string, since: Date) {
  const rows = await tx
    .select({ n: count(), oldest: sql<string>`min(${verificationCodes.createdAt})` })
    .from(verificationCodes)
    .where(and(eq(verificationCodes.ip, ip), gt(verificationCodes.createdAt, since)));
  const row = rows[0];
  return { n: Number(row?.n ?? 0), oldest: row?.oldest ? new Date(row.oldest) : null };
}

export async function supersedeCodes(tx: Tx, merchantId: string, target: string, purpose: string, at: Date) {
  await tx
    .update(verificationCodes)
    .set({ supersededAt: at })
    .where(
      and(
        eq(verificationCodes.merchantId, merchantId),
        eq(verificationCodes.target, target),
        eq(verificationCodes.purpose, purpose),
        isNull(verificationCodes.usedAt),
        isNull(verificationCodes.supersededAt),
      ),
    );
}

export async function insertCode(tx: Tx, values: typeof verificationCodes.$inferInsert) {
  await tx.insert(verificationCodes).values(values);
}

export async function deleteCode(tx: Tx, id: string) {
  await tx.delete(verificationCodes).where(eq(verificationCodes.id, id));
}

/** Counts a try before the comparison is made; answers the tries made so far. */
export async function countTry(tx: Tx, id: string) {
  const [row] = await tx
    .update(verificationCodes)
    .set({ attempts: sql`${verificationCodes.attempts} + 1` })
    .where(eq(verificationCodes.id, id))
    .returning({ attempts: verificationCodes.attempts });
  return row?.attempts ?? Number.POSITIVE_INFINITY;
}

/** Uses the code once: only one caller can win this update. */
export async function consumeCode(tx: Tx, id: string, at: Date) {
  const rows = await tx
    .update(verificationCodes)
    .set({ usedAt: at })
    .where(and(eq(verificationCodes.id, id), isNull(verificationCodes.usedAt), isNull(verificationCodes.supersededAt)))
    .returning({ id: verificationCodes.id });
  return rows.length === 1;
}
