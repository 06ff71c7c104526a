import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { cardBatches, cardBulkActions, cardExports, cards, cardSpendDays, ledgerAccounts } from '../../db/schema.ts';

// The overview reads the other areas' tables of one merchant, in statements of its own: figures for the
// merchant's staff, read side by side, no module's service has a view of them across every customer.

/** What the merchant's customers hold, per currency, in their wallets and on their cards (minor units). */
export const heldPerCurrency = (tx: Tx, merchantId: string) =>
  tx
    .select({
      currency: ledgerAccounts.currency,
      wallets: sql<string>`coalesce(sum(${ledgerAccounts.balance}) filter (where ${ledgerAccounts.kind} = 'WALLET'), 0)::text`,
      cards: sql<string>`coalesce(sum(${ledgerAccounts.balance}) filter (where ${ledgerAccounts.kind} = 'CARD'), 0)::text`,
    })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.merchantId, merchantId), inArray(ledgerAccounts.kind, ['WALLET', 'CARD'])))
    .groupBy(ledgerAccounts.currency)
    .orderBy(ledgerAccounts.currency);

export const cardsByStatus = (tx: Tx, merchantId: string) =>
  tx
    .select({ status: cards.status, count: sql<number>`count(*)::int` })
    .from(cards)
    .where(eq(cards.merchantId, merchantId))
    .groupBy(cards.status);

/** The China day's spend, authorisations and declines per currency. */
export const spendOfDay = (tx: Tx, merchantId: string, day: number) =>
  tx
    .select({
      currency: cardSpendDays.currency,
      spent: sql<string>`coalesce(sum(${cardSpendDays.amount}), 0)::text`,
      authorisations: sql<number>`coalesce(sum(${cardSpendDays.count}), 0)::int`,
      declined: sql<number>`coalesce(sum(${cardSpendDays.declined}), 0)::int`,
    })
    .from(cardSpendDays)
    .where(and(eq(cardSpendDays.merchantId, merchantId), eq(cardSpendDays.day, day)))
    .groupBy(cardSpendDays.currency)
    .orderBy(cardSpendDays.currency);

/** The merchant's card jobs running now, and those failed since `since`, by kind. */
export async function jobCounts(tx: Tx, merchantId: string, since: Date) {
  const [batches, exports, bulk] = await Promise.all([
    tx
      .select({ status: cardBatches.status, count: sql<number>`count(*)::int` })
      .from(cardBatches)
      .where(
        and(eq(cardBatches.merchantId, merchantId), sql`(${cardBatches.status} = 'RUNNING' or (${cardBatches.status} = 'FAIL' and ${cardBatches.createdAt} >= ${since.toISOString()}::timestamptz))`),
      )
      .groupBy(cardBatches.status),
    tx
      .select({ status: cardExports.status, count: sql<number>`count(*)::int` })
      .from(cardExports)
      .where(
        and(
          eq(cardExports.merchantId, merchantId),
          sql`(${cardExports.status} in ('PENDING', 'RUNNING') or (${cardExports.status} = 'FAILED' and ${cardExports.createdAt} >= ${since.toISOString()}::timestamptz))`,
        ),
      )
      .groupBy(cardExports.status),
    tx
      .select({ status: cardBulkActions.status, count: sql<number>`count(*)::int` })
      .from(cardBulkActions)
      // running, or done with cards it could not act on (failed) in the window: DONE here means such a one
      .where(
        and(
          eq(cardBulkActions.merchantId, merchantId),
          sql`(${cardBulkActions.status} in ('PENDING', 'RUNNING') or (${cardBulkActions.status} = 'DONE' and ${cardBulkActions.failed} > 0 and ${cardBulkActions.finishedAt} >= ${since.toISOString()}::timestamptz))`,
        ),
      )
      .groupBy(cardBulkActions.status),
  ]);
  return { batches, exports, bulk };
}
