import { and, asc, eq, gte, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { cardExports, cardRevealGrants, cardReveals } from '../../db/schema.ts';


export async function revealsSince(tx: Tx, accountId: string, since: Date) {
  return tx
    .select({ at: cardReveals.revealedAt })
    .from(cardReveals)
    .where(and(eq(cardReveals.accountId, accountId), gte(cardReveals.revealedAt, since)))
    .orderBy(asc(cardReveals.revealedAt));
}

export async function insertReveal(tx: Tx, values: typeof cardReveals.$inferInsert) {
  await tx.insert(cardReveals).values(values);
}

/** The account's exports with full numbers asked for since `since`, oldest first: they count as reveals. */
export async function sensitiveExportsSince(tx: Tx, accountId: string, since: Date) {
  return tx
    .select({ at: cardExports.createdAt })
    .from(cardExports)
    .where(and(eq(cardExports.accountId, accountId), eq(cardExports.includeSensitive, true), gte(cardExports.createdAt, since)))
    .orderBy(asc(cardExports.createdAt));
}

export async function saveRevealGrant(tx: Tx, grant: { merchantId: string; accountId: string; memberId: string; sessionId: string; at: Date }) {
  await tx
    .insert(cardRevealGrants)
    .values({ merchantId: grant.merchantId, accountId: grant.accountId, memberId: grant.memberId, sessionId: grant.sessionId, grantedAt: grant.at })
    .onConflictDoUpdate({ target: [cardRevealGrants.accountId, cardRevealGrants.memberId], set: { sessionId: grant.sessionId, grantedAt: grant.at } });
}

/** The member's grant (one member's code opens no window for another). */
export async function findRevealGrant(tx: Tx, merchantId: string, accountId: string, memberId: string) {
  const [row] = await tx
    .select()
    .from(cardRevealGrants)
    .where(and(eq(cardRevealGrants.merchantId, merchantId), eq(cardRevealGrants.accountId, accountId), eq(cardRevealGrants.memberId, memberId)))
    .limit(1);
  return row;
}

/** Serialises the reveals of one account, so that two at once cannot both pass the hourly limit. */
export async function lockRevealGrant(tx: Tx, accountId: string) {
  await tx.execute(sql`select 1 from card_reveal_grants where account_id = ${accountId} for update`);
}
