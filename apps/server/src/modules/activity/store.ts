import { and, asc, count, desc, eq, gte, isNotNull, lt, ne, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { activityLog, members } from '../../db/schema.ts';

export type ActivityRow = typeof activityLog.$inferSelect;
export type NewActivity = typeof activityLog.$inferInsert;

export interface ActivityFilter {
  memberId?: string;
  kind?: string;
  cardId?: string;
  /** from this instant on */
  since?: Date;
  /** before this instant */
  before?: Date;
}

/** Writes one entry; answers its id. */
export async function insertActivity(tx: Tx, values: NewActivity) {
  const [row] = await tx.insert(activityLog).values(values).returning({ id: activityLog.id });
  if (!row) throw new Error('the activity entry was not written');
  return row.id;
}

export async function deleteActivity(tx: Tx, id: string) {
  await tx.delete(activityLog).where(eq(activityLog.id, id));
}

function whereOf(merchantId: string, accountId: string, filter: ActivityFilter): SQL | undefined {
  return and(
    eq(activityLog.merchantId, merchantId),
    eq(activityLog.accountId, accountId),
    filter.memberId ? eq(activityLog.memberId, filter.memberId) : undefined,
    filter.kind ? eq(activityLog.kind, filter.kind) : undefined,
    filter.cardId ? eq(activityLog.cardId, filter.cardId) : undefined,
    filter.since ? gte(activityLog.at, filter.since) : undefined,
    filter.before ? lt(activityLog.at, filter.before) : undefined,
  );
}

/** The account's log, newest first: one page, and how many match. */
export async function activityPage(tx: Tx, merchantId: string, accountId: string, filter: ActivityFilter, page: { limit: number; offset: number }) {
  const where = whereOf(merchantId, accountId, filter);
  const [rows, [total]] = await Promise.all([
    tx.select().from(activityLog).where(where).orderBy(desc(activityLog.at), desc(activityLog.id)).limit(page.limit).offset(page.offset),
    tx.select({ n: count() }).from(activityLog).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** The account's members now (not removed), with their phone and role. */
export function currentMembers(tx: Tx, accountId: string) {
  return tx
    .select({ id: members.id, phone: members.phone, role: members.role })
    .from(members)
    .where(and(eq(members.accountId, accountId), ne(members.status, 'REMOVED')))
    .orderBy(asc(members.createdAt), asc(members.id));
}

/** Every member the account's log names, with the label of their newest entry. */
export function loggedMembers(tx: Tx, merchantId: string, accountId: string) {
  return tx
    .selectDistinctOn([activityLog.memberId], { id: sql<string>`${activityLog.memberId}`, label: activityLog.memberLabel })
    .from(activityLog)
    .where(and(eq(activityLog.merchantId, merchantId), eq(activityLog.accountId, accountId), isNotNull(activityLog.memberId)))
    .orderBy(activityLog.memberId, desc(activityLog.at), desc(activityLog.id));
}
