import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { customerManagers } from '../../db/schema.ts';

export async function findManagerByCode(tx: Tx, merchantId: string, code: string) {
  const rows = await tx
    .select()
    .from(customerManagers)
    .where(and(eq(customerManagers.merchantId, merchantId), eq(customerManagers.invitationCode, code.toUpperCase())))
    .limit(1);
  return rows[0];
}

export async function insertManager(tx: Tx, values: { merchantId: string; name: string; invitationCode: string }) {
  const [row] = await tx
    .insert(customerManagers)
    .values({ ...values, invitationCode: values.invitationCode.toUpperCase() })
    .returning();
  if (!row) throw new Error('manager insert returned nothing');
  return row;
}


export async function findManagerById(tx: Tx, id: string) {
  const rows = await tx.select().from(customerManagers).where(eq(customerManagers.id, id)).limit(1);
  return rows[0];
}
