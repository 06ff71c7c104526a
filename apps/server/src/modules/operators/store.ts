import { and, asc, eq, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { operatorRecoveryCodes, operators, operatorSessions } from '../../db/schema.ts';

export type OperatorRow = typeof operators.$inferSelect;
export type OperatorSessionRow = typeof operatorSessions.$inferSelect;

export async function insertOperator(tx: Tx, values: typeof operators.$inferInsert) {
  const [row] = await tx.insert(operators).values(values).onConflictDoNothing().returning();
  return row;
}

export async function findOperatorByEmail(tx: Tx, merchantId: string, email: string) {
  const [row] = await tx.select().from(operators).where(and(eq(operators.merchantId, merchantId), eq(operators.email, email)));
  return row;
}

export async function findOperator(tx: Tx, merchantId: string, id: string) {
  const [row] = await tx.select().from(operators).where(and(eq(operators.merchantId, merchantId), eq(operators.id, id)));
  return row;
}

/** The operator's row, held until the transaction ends: a code's check and its consumption are one. */
export async function lockOperator(tx: Tx, id: string) {
  const [row] = await tx.select().from(operators).where(eq(operators.id, id)).for('update');
  return row;
}

export const listOperators = (tx: Tx, merchantId: string) =>
  tx.select().from(operators).where(eq(operators.merchantId, merchantId)).orderBy(asc(operators.createdAt), asc(operators.email));

export async function updateOperator(tx: Tx, id: string, values: Partial<typeof operators.$inferInsert>) {
  const [row] = await tx.update(operators).set(values).where(eq(operators.id, id)).returning();
  if (!row) throw new Error('operator update matched nothing');
  return row;
}

/**
 * Counts a sign-in try (a password or a code) before it is checked, in one statement that holds the
 * row: the try that reaches `maxTries` in the window locks sign-in at once, and a locked operator gets
 * no try (null). A right answer clears the count afterwards (clearTries).
 */
export async function claimTry(tx: Tx, id: string, now: Date, windowMs: number, maxTries: number) {
  const at = now.toISOString();
  const expired = sql`(${operators.failuresSince} is null or ${operators.failuresSince} < ${new Date(now.getTime() - windowMs).toISOString()}::timestamptz)`;
  const count = sql`case when ${expired} then 1 else ${operators.failures} + 1 end`;
  const [row] = await tx
    .update(operators)
    .set({
      failures: count,
      failuresSince: sql`case when ${expired} then ${at}::timestamptz else ${operators.failuresSince} end`,
      lockedUntil: sql`case when ${count} >= ${maxTries} then ${new Date(now.getTime() + windowMs).toISOString()}::timestamptz else null end`,
    })
    .where(and(eq(operators.id, id), or(isNull(operators.lockedUntil), sql`${operators.lockedUntil} <= ${at}::timestamptz`)))
    .returning({ failures: operators.failures, lockedUntil: operators.lockedUntil });
  return row ?? null;
}

export async function clearTries(tx: Tx, id: string) {
  await tx.update(operators).set({ failures: 0, failuresSince: null, lockedUntil: null }).where(eq(operators.id, id));
}

/**
 * Takes the TOTP step a code matched, once: refused (false) when a code of that step or a later one
 * was taken already, so a code works once and an older one never after it.
 */
export async function takeTotpStep(tx: Tx, id: string, step: number) {
  const rows = await tx
    .update(operators)
    .set({ totpLastStep: step })
    .where(and(eq(operators.id, id), or(isNull(operators.totpLastStep), lt(operators.totpLastStep, step))))
    .returning({ id: operators.id });
  return rows.length === 1;
}

export async function insertSession(tx: Tx, values: typeof operatorSessions.$inferInsert) {
  const [row] = await tx.insert(operatorSessions).values(values).returning();
  if (!row) throw new Error('operator session insert returned nothing');
  return row;
}

export async function findSessionByTokenHash(tx: Tx, tokenHash: string) {
  const [row] = await tx
    .select({ session: operatorSessions, operator: operators })
    .from(operatorSessions)
    .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
    .where(eq(operatorSessions.tokenHash, tokenHash));
  return row;
}

export async function touchSession(tx: Tx, id: string, at: Date) {
  await tx.update(operatorSessions).set({ lastSeenAt: at }).where(eq(operatorSessions.id, id));
}

export async function revokeSession(tx: Tx, id: string, at: Date) {
  const rows = await tx
    .update(operatorSessions)
    .set({ revokedAt: at })
    .where(and(eq(operatorSessions.id, id), isNull(operatorSessions.revokedAt)))
    .returning({ id: operatorSessions.id });
  return rows.length === 1;
}

/**
 * Ends every session of the operator not ended yet (but the one kept), whatever its age: the command line's
 * clock need not be the server's; answers how many there were.
 */
export async function revokeOperatorSessions(tx: Tx, operatorId: string, at: Date, keepSessionId?: string) {
  const rows = await tx
    .update(operatorSessions)
    .set({ revokedAt: at })
    .where(
      and(
        eq(operatorSessions.operatorId, operatorId),
        isNull(operatorSessions.revokedAt),
        keepSessionId ? ne(operatorSessions.id, keepSessionId) : undefined,
      ),
    )
    .returning({ id: operatorSessions.id });
  return rows.length;
}

export async function replaceRecoveryCodes(tx: Tx, operatorId: string, hashes: string[]) {
  await tx.delete(operatorRecoveryCodes).where(eq(operatorRecoveryCodes.operatorId, operatorId));
  if (hashes.length > 0) await tx.insert(operatorRecoveryCodes).values(hashes.map((codeHash) => ({ operatorId, codeHash })));
}

/** Uses one unused recovery code of the operator; false when it is none of theirs or was used. */
export async function useRecoveryCode(tx: Tx, operatorId: string, codeHash: string, at: Date) {
  const rows = await tx
    .update(operatorRecoveryCodes)
    .set({ usedAt: at })
    .where(and(eq(operatorRecoveryCodes.operatorId, operatorId), eq(operatorRecoveryCodes.codeHash, codeHash), isNull(operatorRecoveryCodes.usedAt)))
    .returning({ id: operatorRecoveryCodes.id });
  return rows.length === 1;
}

export async function countRecoveryCodesLeft(tx: Tx, operatorId: string) {
  const [row] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(operatorRecoveryCodes)
    .where(and(eq(operatorRecoveryCodes.operatorId, operatorId), isNull(operatorRecoveryCodes.usedAt)));
  return row?.count ?? 0;
}
