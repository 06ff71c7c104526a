import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { cards } from '../../db/schema.ts';

/** The statuses in which a card waits for the issuer's event (the index cards_waiting covers them). */
export const WAITING_STATUSES = ['CARD_STATUS_INIT', 'FREEZING', 'UNFREEZING', 'DELETING'] as const;

/**
 * The next page of cards waiting for the issuer since `before` or earlier (all of them without it),
 * oldest first, after the cursor; at one merchant when given.
 */
export async function waitingCards(
  tx: Tx,
  { before, merchantId, after, limit }: { before: Date | null; merchantId: string | undefined; after: { updatedAt: Date; id: string } | null; limit: number },
) {
  return tx
    .select({ id: cards.id, updatedAt: cards.updatedAt })
    .from(cards)
    .where(
      and(
        inArray(cards.status, [...WAITING_STATUSES]),
        before ? sql`${cards.updatedAt} <= ${before}` : undefined,
        merchantId ? eq(cards.merchantId, merchantId) : undefined,
        after ? sql`(${cards.updatedAt}, ${cards.id}) > (${after.updatedAt}, ${after.id}::uuid)` : undefined,
      ),
    )
    .orderBy(asc(cards.updatedAt), asc(cards.id))
    .limit(limit);
}
