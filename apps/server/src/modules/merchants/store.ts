import { asc, eq } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { merchantHosts, merchants } from '../../db/schema.ts';

export type MerchantRow = typeof merchants.$inferSelect;
export type NewMerchant = typeof merchants.$inferInsert;

export async function findMerchantByHost(tx: Tx, host: string): Promise<MerchantRow | undefined> {
  const rows = await tx
    .select({ merchant: merchants })
    .from(merchantHosts)
    .innerJoin(merchants, eq(merchants.id, merchantHosts.merchantId))
    .where(eq(merchantHosts.host, host))
    .limit(1);
  return rows[0]?.merchant;
}

export async function findMerchantBySlug(tx: Tx, slug: string) {
  const rows = await tx.select().from(merchants).where(eq(merchants.slug, slug)).limit(1);
  return rows[0];
}

export async function listMerchantsWithHosts(tx: Tx) {
  const rows = await tx.select().from(merchants).orderBy(asc(merchants.createdAt), asc(merchants.slug));
  const hosts = await tx.select().from(merchantHosts).orderBy(asc(merchantHosts.host));
  return rows.map((m) => ({ ...m, hosts: hosts.filter((h) => h.merchantId === m.id).map((h) => h.host) }));
}

export async function countMerchants(tx: Tx) {
  const rows = await tx.select({ id: merchants.id }).from(merchants).limit(1);
  return rows.length;
}

export async function insertMerchant(tx: Tx, values: NewMerchant) {
  const [row] = await tx.insert(merchants).values(values).returning();
  if (!row) throw new Error('merchant insert returned nothing');
  return row;
}

export async function updateMerchant(tx: Tx, id: string, values: Partial<NewMerchant>) {
  const [row] = await tx
    .update(merchants)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(merchants.id, id))
    .returning();
  return row;
}

export async function insertHost(tx: Tx, host: string, merchantId: string) {
  await tx.insert(merchantHosts).values({ host, merchantId });
}

export async function deleteHost(tx: Tx, host: string) {
  await tx.delete(merchantHosts).where(eq(merchantHosts.host, host));
}

export async function listHostsOfMerchant(tx: Tx, merchantId: string) {
  const rows = await tx
    .select({ host: merchantHosts.host })
    .from(merchantHosts)
    .where(eq(merchantHosts.merchantId, merchantId))
    .orderBy(asc(merchantHosts.host));
  return rows.map((row) => row.host);
}
