import { and, count, desc, eq, gt, isNull, lte, min, ne } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { accounts, invitations, members } from '../../db/schema.ts';

export type InvitationRow = typeof invitations.$inferSelect;

const pending = and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt));

/** Whether a member of the merchant (not removed) signs in with this phone or e-mail. */
export async function addressTaken(tx: Tx, merchantId: string, to: { email?: string | null; phonePrefix?: string | null; phone?: string | null }) {
  const byAddress = to.email
    ? eq(members.email, to.email)
    : and(eq(members.phonePrefix, to.phonePrefix ?? ''), eq(members.phone, to.phone ?? ''));
  const [row] = await tx
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.merchantId, merchantId), ne(members.status, 'REMOVED'), byAddress))
    .limit(1);
  return row !== undefined;
}

/** Locks the account's row: one invitation of an account is decided at a time. */
export async function lockAccount(tx: Tx, accountId: string) {
  await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for('update');
}

/**
 * Locks the inviting member's row and answers whether they are still active: a removal or suspension
 * (which holds the same row) either lands first and is seen here, or waits for this invitation and
 * revokes it.
 */
export async function lockActiveInviter(tx: Tx, memberId: string) {
  const [row] = await tx.select({ status: members.status }).from(members).where(eq(members.id, memberId)).for('update');
  return row?.status === 'ACTIVE';
}

/** The account's pending invitation to an address, if any (expired or not). */
export async function findPendingTo(tx: Tx, accountId: string, address: string) {
  const [row] = await tx
    .select()
    .from(invitations)
    .where(and(eq(invitations.accountId, accountId), eq(invitations.address, address), pending));
  return row;
}

/** How many invitations the account sent after `since` (to `address` only, when given), and when the oldest of them went. */
export async function sentSince(tx: Tx, accountId: string, since: Date, address?: string) {
  const [row] = await tx
    .select({ n: count(), oldest: min(invitations.createdAt) })
    .from(invitations)
    .where(and(eq(invitations.accountId, accountId), gt(invitations.createdAt, since), address === undefined ? undefined : eq(invitations.address, address)));
  return { n: row?.n ?? 0, oldest: row?.oldest ?? null };
}

export async function insertInvitation(tx: Tx, values: typeof invitations.$inferInsert) {
  const [row] = await tx.insert(invitations).values(values).returning();
  if (!row) throw new Error('invitation insert returned nothing');
  return row;
}

export async function deleteInvitation(tx: Tx, id: string) {
  await tx.delete(invitations).where(eq(invitations.id, id));
}

/** Revokes a pending invitation of the account; false when it has no pending one of that id. */
export async function revokeInvitation(tx: Tx, accountId: string, id: string, now: Date) {
  const rows = await tx
    .update(invitations)
    .set({ revokedAt: now })
    .where(and(eq(invitations.id, id), eq(invitations.accountId, accountId), pending))
    .returning({ id: invitations.id });
  return rows.length > 0;
}

/** The account's pending invitations that have not expired, newest first, with who invited. */
export async function listPending(tx: Tx, accountId: string, now: Date) {
  return tx
    .select({ invitation: invitations, inviterPhone: members.phone, inviterRole: members.role })
    .from(invitations)
    .innerJoin(members, eq(members.id, invitations.invitedBy))
    .where(and(eq(invitations.accountId, accountId), pending, gt(invitations.expiresAt, now)))
    .orderBy(desc(invitations.createdAt), desc(invitations.id));
}

/** An invitation of the merchant by its token's hash, with the account's name and who invited. */
export async function findByTokenHash(tx: Tx, merchantId: string, tokenHash: string) {
  const [row] = await tx
    .select({ invitation: invitations, accountName: accounts.name, inviterPhone: members.phone, inviterRole: members.role })
    .from(invitations)
    .innerJoin(accounts, eq(accounts.id, invitations.accountId))
    .innerJoin(members, eq(members.id, invitations.invitedBy))
    .where(and(eq(invitations.tokenHash, tokenHash), eq(invitations.merchantId, merchantId)));
  return row;
}

/** Uses a live invitation up for the member who joined by it; false when it was used, revoked or expired meanwhile. */
export async function acceptInvitation(tx: Tx, id: string, memberId: string, now: Date) {
  const rows = await tx
    .update(invitations)
    .set({ acceptedAt: now, acceptedMemberId: memberId })
    .where(and(eq(invitations.id, id), pending, gt(invitations.expiresAt, now)))
    .returning({ id: invitations.id });
  return rows.length > 0;
}

/** Revokes the account's pending invitation to an address that expired by `now` (a new one may then be sent). */
export async function revokeExpiredTo(tx: Tx, accountId: string, address: string, now: Date) {
  await tx
    .update(invitations)
    .set({ revokedAt: now })
    .where(and(eq(invitations.accountId, accountId), eq(invitations.address, address), pending, lte(invitations.expiresAt, now)));
}

/** Revokes every pending invitation a member sent (they are removed or suspended): none outlives their say. */
export async function revokeInvitedBy(tx: Tx, memberId: string, now: Date) {
  await tx
    .update(invitations)
    .set({ revokedAt: now })
    .where(and(eq(invitations.invitedBy, memberId), pending));
}
