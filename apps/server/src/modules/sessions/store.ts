import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { accounts, members, sessions } from '../../db/schema.ts';
import { callerColumns } from '../../db/caller-columns.ts';

export type SessionRow = typeof sessions.$inferSelect;

export async function insertSession(tx: Tx, values: typeof sessions.$inferInsert) {
  const [row] = await tx.insert(sessions).values(values).returning();
  if (!row) throw new Error('session insert returned nothing');
  return row;
}

// reads the member's and the account's few columns in the same statement (the one read of other
// modules' tables here): every request pays this lookup, and a second round trip would cost every call.
// The member's role and status ride along (a role change or a suspension holds from the next call),
// and whether a trade password is set: the account's answer and the money calls' check need it, and
// the hash itself never leaves the accounts module.
function sessionByTokenHashQuery(tx: Tx) {
  return tx
    .select({ session: sessions, ...callerColumns() })
    .from(sessions)
    .innerJoin(members, eq(members.id, sessions.memberId))
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .where(eq(sessions.tokenHash, sql.placeholder('tokenHash')))
    .limit(1);
}

// every request looks its session up: the statement is built once per database and prepared on the server
const prepared = new WeakMap<object, ReturnType<ReturnType<typeof sessionByTokenHashQuery>['prepare']>>();

export async function findSessionByTokenHash(tx: Tx, tokenHash: string) {
  let statement = prepared.get(tx);
  if (!statement) {
    statement = sessionByTokenHashQuery(tx).prepare('session_by_token_hash');
    prepared.set(tx, statement);
  }
  const rows = await statement.execute({ tokenHash });
  return rows[0];
}

export async function touchSession(tx: Tx, id: string, at: Date) {
  await tx.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.id, id));
}

/** Ends one session; answers false when it had already ended. */
export async function revokeSession(tx: Tx, id: string, at: Date, reason: string) {
  const rows = await tx
    .update(sessions)
    .set({ revokedAt: at, revokeReason: reason })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length === 1;
}

/** Ends the member's live sessions (but `exceptId`); answers how many were live. */
export async function revokeMemberSessions(tx: Tx, memberId: string, at: Date, reason: string, exceptId?: string) {
  const rows = await tx
    .update(sessions)
    .set({ revokedAt: at, revokeReason: reason })
    .where(and(eq(sessions.memberId, memberId), isNull(sessions.revokedAt), exceptId ? ne(sessions.id, exceptId) : undefined))
    .returning({ id: sessions.id, lastSeenAt: sessions.lastSeenAt });
  return rows;
}

/**
 * Ends one live session of the member (not ended, seen since `seenSince`); false when it is not the
 * member's, had already ended or has expired, and then nothing is written.
 */
export async function revokeOwnSession(tx: Tx, memberId: string, id: string, seenSince: Date, at: Date, reason: string) {
  const rows = await tx
    .update(sessions)
    .set({ revokedAt: at, revokeReason: reason })
    .where(and(eq(sessions.id, id), eq(sessions.memberId, memberId), isNull(sessions.revokedAt), gt(sessions.lastSeenAt, seenSince)))
    .returning({ id: sessions.id });
  return rows.length === 1;
}

/** The member's sessions not ended and seen since `seenSince` (idle ones have expired), newest activity first. */
export async function listLiveSessions(tx: Tx, memberId: string, seenSince: Date) {
  return tx
    .select({
      id: sessions.id,
      stage: sessions.stage,
      userAgent: sessions.userAgent,
      ip: sessions.ip,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(and(eq(sessions.memberId, memberId), isNull(sessions.revokedAt), gt(sessions.lastSeenAt, seenSince)))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.id));
}
