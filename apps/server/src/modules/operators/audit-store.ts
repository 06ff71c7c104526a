import { and, count, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { operatorAudit } from '../../db/schema.ts';

export type AuditRow = typeof operatorAudit.$inferSelect;
export type NewAuditRow = typeof operatorAudit.$inferInsert;

export async function insertAudit(tx: Tx, row: NewAuditRow) {
  await tx.insert(operatorAudit).values(row);
}

export interface AuditFilter {
  merchantId: string;
  operatorId?: string | undefined;
  action?: string | undefined;
  /** from, included; to, excluded */
  from?: Date | undefined;
  to?: Date | undefined;
}

function where(filter: AuditFilter): SQL | undefined {
  return and(
    eq(operatorAudit.merchantId, filter.merchantId),
    filter.operatorId ? eq(operatorAudit.operatorId, filter.operatorId) : undefined,
    filter.action ? eq(operatorAudit.action, filter.action) : undefined,
    filter.from ? gte(operatorAudit.at, filter.from) : undefined,
    filter.to ? lt(operatorAudit.at, filter.to) : undefined,
  );
}

/** A page of the merchant's audit rows, newest first, with how many match. */
export async function listAudit(tx: Tx, filter: AuditFilter, limit: number, offset: number) {
  const [rows, [total]] = await Promise.all([
    tx.select().from(operatorAudit).where(where(filter)).orderBy(desc(operatorAudit.at), desc(operatorAudit.seq)).limit(limit).offset(offset),
    tx.select({ total: count() }).from(operatorAudit).where(where(filter)),
  ]);
  return { rows, total: total?.total ?? 0 };
}
