import { and, asc, count, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { loginAttempts, requestKeys, trustedDevices } from '../../db/schema.ts';

export async function listTrustedDevices(tx: Tx, memberId: string, now: Date) {
  return tx
    .select()
    .from(trustedDevices)
    .where(and(eq(trustedDevices.memberId, memberId), isNull(trustedDevices.revokedAt), gt(trustedDevices.expiresAt, now)))
    .orderBy(asc(trustedDevices.createdAt));
}

export async function revokeTrustedDevice(tx: Tx, memberId: string, id: string, now: Date) {
  const rows = await tx
    .update(trustedDevices)
    .set({ revokedAt: now })
    .where(and(eq(trustedDevices.memberId, memberId), eq(trustedDevices.id, id), isNull(trustedDevices.revokedAt)))
    .returning({ id: trustedDevices.id });
  return rows.length === 1;
}

export async function countLiveTrustedDevices(tx: Tx, memberId: string, now: Date) {
  const [row] = await tx
    .select({ n: count() })
    .from(trustedDevices)
    .where(and(eq(trustedDevices.memberId, memberId), isNull(trustedDevices.revokedAt), gt(trustedDevices.expiresAt, now)));
  return row?.n ?? 0;
}

/** The member's newest sign-in attempts (`result` to keep only those that ended so). */
export async function listLoginAttempts(tx: Tx, memberId: string, limit: number, result?: string) {
  return tx
    .select()
    .from(loginAttempts)
    .where(and(eq(loginAttempts.memberId, memberId), result ? eq(loginAttempts.result, result) : undefined))
    // in the index's own order (DESC NULLS LAST), so the newest are read from it and not sorted
    .orderBy(sql`${loginAttempts.at} desc nulls last`, sql`${loginAttempts.id} desc`)
    .limit(limit);
}

export type RequestKeyRow = typeof requestKeys.$inferSelect;

export async function findRequestKey(tx: Tx, accountId: string, key: string): Promise<RequestKeyRow | undefined> {
  const [row] = await tx.select().from(requestKeys).where(and(eq(requestKeys.accountId, accountId), eq(requestKeys.key, key)));
  return row;
}

/** Binds the key to its call unless it is bound already (to this call or another): false then. */
export async function bindRequestKey(tx: Tx, row: typeof requestKeys.$inferInsert) {
  const rows = await tx.insert(requestKeys).values(row).onConflictDoNothing().returning({ key: requestKeys.key });
  return rows.length === 1;
}
