import type { BulkItemState } from '@portal/contract/card-bulk';
import { and, asc, count, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { rowsOf } from '../../db/raw-rows.ts';
import { cardBulkActions, cardBulkItems, cards, ledgerHolds, members } from '../../db/schema.ts';
import { isUuid } from '../../lib/uuid.ts';

export type BulkRow = typeof cardBulkActions.$inferSelect;
export type BulkItemRow = typeof cardBulkItems.$inferSelect;

/** The cards an action chooses, as the card list's WHERE clause (cards' cardListWhere) or by their ids. */
export type CardChoice = SQL;

export async function countCards(tx: Tx, where: CardChoice) {
  const [row] = await tx.select({ n: count() }).from(cards).where(where);
  return row?.n ?? 0;
}

/** The chosen cards, newest first as the list shows them (at most `limit`). */
export async function chosenCards(tx: Tx, where: CardChoice, limit: number) {
  return tx
    .select()
    .from(cards)
    .where(where)
    .orderBy(sql`${cards.createdAt} desc nulls last`, sql`${cards.id} desc nulls last`)
    .limit(limit);
}

/** The account's cards among these ids (any holder). */
export async function accountCards(tx: Tx, merchantId: string, accountId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return tx
    .select()
    .from(cards)
    .where(and(eq(cards.merchantId, merchantId), eq(cards.accountId, accountId), inArray(cards.id, ids)));
}

export async function activeMemberOf(tx: Tx, accountId: string, memberId: string) {
  if (!isUuid(memberId)) return undefined;
  const [row] = await tx
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.id, memberId), eq(members.accountId, accountId), eq(members.status, 'ACTIVE')))
    .limit(1);
  return row;
}

// ── bulk actions ──

export async function insertBulk(tx: Tx, values: typeof cardBulkActions.$inferInsert) {
  const [row] = await tx.insert(cardBulkActions).values(values).returning();
  if (!row) throw new Error('bulk action insert returned nothing');
  return row;
}

export async function insertItems(tx: Tx, values: Array<typeof cardBulkItems.$inferInsert>) {
  // in slices: a statement takes at most 65,535 parameters
  for (let from = 0; from < values.length; from += 500) await tx.insert(cardBulkItems).values(values.slice(from, from + 500));
}

export async function findBulkByKey(tx: Tx, accountId: string, key: string) {
  const [row] = await tx
    .select()
    .from(cardBulkActions)
    .where(and(eq(cardBulkActions.accountId, accountId), eq(cardBulkActions.requestKey, key)))
    .limit(1);
  return row;
}

export async function findBulk(tx: Tx, id: string) {
  const [row] = await tx.select().from(cardBulkActions).where(eq(cardBulkActions.id, id)).limit(1);
  return row;
}

/** The account's bulk action; with `memberId`, only one that member started. */
export async function findOwnBulk(tx: Tx, merchantId: string, accountId: string, id: string, memberId?: string) {
  const [row] = await tx
    .select()
    .from(cardBulkActions)
    .where(
      and(
        eq(cardBulkActions.id, id),
        eq(cardBulkActions.merchantId, merchantId),
        eq(cardBulkActions.accountId, accountId),
        memberId ? eq(cardBulkActions.memberId, memberId) : undefined,
      ),
    )
    .limit(1);
  return row;
}

export async function lockBulk(tx: Tx, id: string) {
  const [row] = await tx.select().from(cardBulkActions).where(eq(cardBulkActions.id, id)).for('update');
  return row;
}

export async function updateBulk(tx: Tx, id: string, changes: Partial<Omit<BulkRow, 'id'>>, onlyIf?: { status: string }) {
  const [row] = await tx
    .update(cardBulkActions)
    .set(changes)
    .where(and(eq(cardBulkActions.id, id), onlyIf ? eq(cardBulkActions.status, onlyIf.status) : undefined))
    .returning();
  return row;
}

/** Counts one more card ended. */
export async function countEnded(tx: Tx, id: string, state: 'SUCCEEDED' | 'FAILED') {
  const [row] = await tx
    .update(cardBulkActions)
    .set(state === 'SUCCEEDED' ? { succeeded: sql`${cardBulkActions.succeeded} + 1` } : { failed: sql`${cardBulkActions.failed} + 1` })
    .where(eq(cardBulkActions.id, id))
    .returning();
  if (!row) throw new Error(`bulk action ${id} vanished`);
  return row;
}

// ── items ──

export async function itemsOf(tx: Tx, bulkId: string) {
  return tx.select().from(cardBulkItems).where(eq(cardBulkItems.bulkId, bulkId)).orderBy(asc(cardBulkItems.position));
}

/**
 * Claims the action's next card: a PENDING one, or a RUNNING one whose worker's lease ran out (it
 * died holding it). SKIP LOCKED: two workers never claim one item, nor wait on each other.
 */
export async function claimItem(tx: Tx, bulkId: string, now: Date, leaseUntil: Date) {
  const rows = await rowsOf(
    tx.execute(sql`
    update ${cardBulkItems} set state = 'RUNNING', attempts = attempts + 1, lease_until = ${leaseUntil.toISOString()}::timestamptz
    where (bulk_id, card_id) = (
      select bulk_id, card_id from ${cardBulkItems}
      where bulk_id = ${bulkId}::uuid and (state = 'PENDING' or (state = 'RUNNING' and lease_until < ${now.toISOString()}::timestamptz))
      order by position
      limit 1
      for update skip locked
    )
    returning card_id, attempts, amount::text as amount, hold_id`),
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    cardId: String(row.card_id),
    attempts: Number(row.attempts),
    amount: row.amount === null || row.amount === undefined ? null : BigInt(String(row.amount)),
    holdId: row.hold_id === null || row.hold_id === undefined ? null : String(row.hold_id),
  };
}
export type ClaimedItem = NonNullable<Awaited<ReturnType<typeof claimItem>>>;

/** The claim `attempts` of a running item, the item's latest: the one worker that may end it or put it back. */
const latestClaim = (bulkId: string, cardId: string, attempts: number) =>
  and(eq(cardBulkItems.bulkId, bulkId), eq(cardBulkItems.cardId, cardId), eq(cardBulkItems.state, 'RUNNING'), eq(cardBulkItems.attempts, attempts));

/**
 * Ends a claimed item, once: false when that claim is no longer the item's (its lease ran out and another
 * worker claimed it, or ended it already).
 */
export async function endItem(tx: Tx, bulkId: string, cardId: string, attempts: number, state: Extract<BulkItemState, 'SUCCEEDED' | 'FAILED'>, reason: string | null, now: Date) {
  const rows = await tx
    .update(cardBulkItems)
    .set({ state, reason, finishedAt: now, leaseUntil: null })
    .where(latestClaim(bulkId, cardId, attempts))
    .returning({ cardId: cardBulkItems.cardId });
  return rows.length > 0;
}

/** A claimed item back to be claimed again (its attempts kept, so the tries stay counted). */
export async function putBack(tx: Tx, bulkId: string, cardId: string, attempts: number) {
  await tx.update(cardBulkItems).set({ state: 'PENDING', leaseUntil: null }).where(latestClaim(bulkId, cardId, attempts));
}

/** The action's items still to end, and the soonest a held one's lease runs out. */
export async function openItems(tx: Tx, bulkId: string) {
  const [row] = await tx
    .select({ n: count(), soonest: sql<string | null>`min(${cardBulkItems.leaseUntil})::text` })
    .from(cardBulkItems)
    .where(and(eq(cardBulkItems.bulkId, bulkId), inArray(cardBulkItems.state, ['PENDING', 'RUNNING'])));
  return { open: row?.n ?? 0, soonest: row?.soonest ? new Date(row.soonest) : null };
}

/** The holds of the action's items still active (left by cards that failed, or a worker that died between). */
export async function activeItemHolds(tx: Tx, bulkId: string) {
  return tx
    .select({ cardId: cardBulkItems.cardId, holdId: ledgerHolds.id })
    .from(cardBulkItems)
    .innerJoin(ledgerHolds, eq(ledgerHolds.id, cardBulkItems.holdId))
    .where(and(eq(cardBulkItems.bulkId, bulkId), eq(ledgerHolds.status, 'ACTIVE')));
}

/**
 * What the member's bulk top-ups still at work hold in `currency` for cards they hold: the top-ups and
 * fees accepted whose cards were not topped up yet (each item's hold, while active).
 */
export async function promisedTopUps(tx: Tx, accountId: string, memberId: string, currency: string) {
  const [row] = await tx
    .select({ held: sql<string>`coalesce(sum(${ledgerHolds.amount}), 0)::text` })
    .from(cardBulkActions)
    .innerJoin(cardBulkItems, eq(cardBulkItems.bulkId, cardBulkActions.id))
    .innerJoin(ledgerHolds, eq(ledgerHolds.id, cardBulkItems.holdId))
    .where(
      and(
        eq(cardBulkActions.accountId, accountId),
        eq(cardBulkActions.heldBy, memberId),
        inArray(cardBulkActions.status, ['PENDING', 'RUNNING']),
        eq(cardBulkActions.action, 'RECHARGE'),
        inArray(cardBulkItems.state, ['PENDING', 'RUNNING']),
        eq(ledgerHolds.status, 'ACTIVE'),
        eq(ledgerHolds.currency, currency),
      ),
    );
  return BigInt(row?.held ?? '0');
}

/** Whether the hold is still active. */
export async function holdActive(tx: Tx, holdId: string) {
  const [row] = await tx.select({ status: ledgerHolds.status }).from(ledgerHolds).where(eq(ledgerHolds.id, holdId)).limit(1);
  return row?.status === 'ACTIVE';
}

/** The card's tags replaced, the card locked in `tx` by the caller. */
export async function setTags(tx: Tx, cardId: string, tags: string[], now: Date) {
  const [card] = await tx.update(cards).set({ tags, updatedAt: now }).where(eq(cards.id, cardId)).returning();
  if (!card) throw new Error(`card ${cardId} not tagged`);
  return card;
}
