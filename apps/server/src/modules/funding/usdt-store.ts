import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { cryptoGatewayEvents, deposits, usdtAddresses, usdtSettings } from '../../db/schema.ts';

/** The SQL of USDT top-ups: the merchant's offer, the accounts' addresses, the gateway's event ids, chain deposits. */

export type UsdtSettingsRow = typeof usdtSettings.$inferSelect;

export async function findUsdtSettings(tx: Tx, merchantId: string) {
  const [row] = await tx.select().from(usdtSettings).where(eq(usdtSettings.merchantId, merchantId));
  return row;
}

export async function saveUsdtSettings(tx: Tx, values: { merchantId: string; enabled: boolean; rateMicros: bigint; feeBps: number }) {
  const { merchantId: _m, ...changes } = values;
  const [row] = await tx
    .insert(usdtSettings)
    .values(values)
    .onConflictDoUpdate({ target: usdtSettings.merchantId, set: { ...changes, updatedAt: sql`now()` } })
    .returning();
  if (!row) throw new Error('usdt settings upsert returned nothing');
  return row;
}

export async function addressOf(tx: Tx, accountId: string) {
  const [row] = await tx.select({ address: usdtAddresses.address }).from(usdtAddresses).where(eq(usdtAddresses.accountId, accountId));
  return row?.address;
}

/** Keeps the account's address unless it has one already (two first requests at once keep one). */
export async function keepAddress(tx: Tx, values: { merchantId: string; accountId: string; address: string }) {
  await tx.insert(usdtAddresses).values(values).onConflictDoNothing({ target: usdtAddresses.accountId });
}

export async function addressOwner(tx: Tx, address: string) {
  const [row] = await tx.select({ merchantId: usdtAddresses.merchantId, accountId: usdtAddresses.accountId }).from(usdtAddresses).where(eq(usdtAddresses.address, address));
  return row;
}

/** Records a gateway event id; false when it was recorded before (a replay). */
export async function recordGatewayEvent(tx: Tx, values: { id: string; type: string; outcome: string }) {
  const rows = await tx.insert(cryptoGatewayEvents).values(values).onConflictDoNothing().returning({ id: cryptoGatewayEvents.id });
  return rows.length === 1;
}

/** The chain deposit of this transaction, made PENDING when first seen, then locked until the caller's transaction ends. */
export async function chainDepositForUpdate(tx: Tx, values: typeof deposits.$inferInsert & { chainTxId: string }) {
  const inserted = await tx.insert(deposits).values(values).onConflictDoNothing({ target: [deposits.merchantId, deposits.chainTxId] }).returning({ id: deposits.id });
  const [row] = await tx
    .select()
    .from(deposits)
    .where(and(eq(deposits.merchantId, values.merchantId), eq(deposits.chainTxId, values.chainTxId)))
    .for('update');
  if (!row) throw new Error('chain deposit neither inserted nor found');
  return { row, fresh: inserted.length === 1 };
}

/** USDT deposits still PENDING that the gateway has not told of since `before` (all of them when null), oldest news first. */
export async function quietChainDeposits(tx: Tx, { before, merchantId, limit }: { before: Date | null; merchantId?: string | undefined; limit: number }) {
  return tx
    .select()
    .from(deposits)
    .where(
      and(
        eq(deposits.kind, 'USDT'),
        eq(deposits.status, 'PENDING'),
        before ? lt(sql`coalesce(${deposits.chainSeenAt}, ${deposits.createdAt})`, before) : undefined,
        merchantId ? eq(deposits.merchantId, merchantId) : undefined,
      ),
    )
    .orderBy(asc(deposits.chainSeenAt))
    .limit(limit);
}

/** Addresses not listed at the gateway since `before` (every address when null), never-listed first. */
export async function addressesToCheck(tx: Tx, { before, merchantId, limit }: { before: Date | null; merchantId?: string | undefined; limit: number }) {
  return tx
    .select({ address: usdtAddresses.address, accountId: usdtAddresses.accountId, merchantId: usdtAddresses.merchantId })
    .from(usdtAddresses)
    .where(and(before ? or(isNull(usdtAddresses.checkedAt), lt(usdtAddresses.checkedAt, before)) : undefined, merchantId ? eq(usdtAddresses.merchantId, merchantId) : undefined))
    .orderBy(sql`${usdtAddresses.checkedAt} asc nulls first`, asc(usdtAddresses.accountId))
    .limit(limit);
}

export async function markAddressChecked(tx: Tx, address: string, at: Date) {
  await tx.update(usdtAddresses).set({ checkedAt: at }).where(eq(usdtAddresses.address, address));
}

/** The gateway answered about a deposit and had nothing new: it is quiet again from now. */
export async function markChainSeen(tx: Tx, id: string, at: Date) {
  await tx.update(deposits).set({ chainSeenAt: at }).where(and(eq(deposits.id, id), eq(deposits.status, 'PENDING')));
}

/** The chain deposits of these transactions at the merchant, as they stand. */
export async function chainDepositsOf(tx: Tx, merchantId: string, txIds: string[]) {
  if (txIds.length === 0) return [];
  return tx.select().from(deposits).where(and(eq(deposits.merchantId, merchantId), inArray(deposits.chainTxId, txIds)));
}
