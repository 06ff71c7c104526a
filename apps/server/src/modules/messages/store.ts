import { and, count, desc, eq, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { announcementReads, announcements, stationMessages } from '../../db/schema.ts';

export type StationMessageRow = typeof stationMessages.$inferSelect;
export type AnnouncementRow = typeof announcements.$inferSelect;

export async function insertStationMessage(tx: Tx, values: typeof stationMessages.$inferInsert) {
  const [row] = await tx.insert(stationMessages).values(values).returning();
  if (!row) throw new Error('message insert returned nothing');
  return row;
}

export async function insertAnnouncement(tx: Tx, values: typeof announcements.$inferInsert) {
  const [row] = await tx.insert(announcements).values(values).returning();
  if (!row) throw new Error('announcement insert returned nothing');
  return row;
}

/**
 * Puts the expired content in place of the secret-holding one, for the account's messages whose
 * content expired by `now`: the secret is kept no longer than the next message of that kind.
 */
export async function expireMessageContents(tx: Tx, accountId: string, now: Date) {
  await tx
    .update(stationMessages)
    .set({ content: sql`${stationMessages.expiredContent}`, contentExpiresAt: null, expiredContent: null })
    .where(and(eq(stationMessages.accountId, accountId), isNotNull(stationMessages.contentExpiresAt), lte(stationMessages.contentExpiresAt, now)));
}

function messageFilter(accountId: string, read: 'all' | 'read' | 'unread') {
  return and(
    eq(stationMessages.accountId, accountId),
    read === 'read' ? isNotNull(stationMessages.readAt) : read === 'unread' ? isNull(stationMessages.readAt) : undefined,
  );
}

export async function pageStationMessages(tx: Tx, accountId: string, read: 'all' | 'read' | 'unread', limit: number, offset: number) {
  const where = messageFilter(accountId, read);
  const [rows, totals] = await Promise.all([
    tx.select().from(stationMessages).where(where).orderBy(desc(stationMessages.createdAt), desc(stationMessages.id)).limit(limit).offset(offset),
    tx.select({ n: count() }).from(stationMessages).where(where),
  ]);
  return { rows, total: Number(totals[0]?.n ?? 0) };
}

const isReadBy = (accountId: string) =>
  sql<boolean>`exists (select 1 from ${announcementReads} where ${announcementReads.announcementId} = ${announcements.id} and ${announcementReads.accountId} = ${accountId})`;

export async function pageAnnouncements(tx: Tx, merchantId: string, accountId: string, read: 'all' | 'read' | 'unread', limit: number, offset: number) {
  const readCheck = isReadBy(accountId);
  const where = and(
    eq(announcements.merchantId, merchantId),
    read === 'read' ? readCheck : read === 'unread' ? sql`not ${readCheck}` : undefined,
  );
  const [rows, totals] = await Promise.all([
    tx
      .select({ announcement: announcements, isRead: readCheck })
      .from(announcements)
      .where(where)
      .orderBy(desc(announcements.publishedAt), desc(announcements.id))
      .limit(limit)
      .offset(offset),
    tx.select({ n: count() }).from(announcements).where(where),
  ]);
  return { rows, total: Number(totals[0]?.n ?? 0) };
}

export async function findStationMessage(tx: Tx, accountId: string, id: string) {
  const rows = await tx
    .select()
    .from(stationMessages)
    .where(and(eq(stationMessages.accountId, accountId), eq(stationMessages.id, id)))
    .limit(1);
  return rows[0];
}

export async function findAnnouncement(tx: Tx, merchantId: string, accountId: string, id: string) {
  const rows = await tx
    .select({ announcement: announcements, isRead: isReadBy(accountId) })
    .from(announcements)
    .where(and(eq(announcements.merchantId, merchantId), eq(announcements.id, id)))
    .limit(1);
  return rows[0];
}

export async function markStationMessageRead(tx: Tx, accountId: string, id: string, at: Date) {
  await tx
    .update(stationMessages)
    .set({ readAt: at })
    .where(and(eq(stationMessages.accountId, accountId), eq(stationMessages.id, id), isNull(stationMessages.readAt)));
}

export async function markAnnouncementRead(tx: Tx, accountId: string, id: string, at: Date) {
  await tx.insert(announcementReads).values({ accountId, announcementId: id, readAt: at }).onConflictDoNothing();
}

export async function markAllStationMessagesRead(tx: Tx, accountId: string, at: Date) {
  await tx
    .update(stationMessages)
    .set({ readAt: at })
    .where(and(eq(stationMessages.accountId, accountId), isNull(stationMessages.readAt)));
}

export async function markAllAnnouncementsRead(tx: Tx, merchantId: string, accountId: string, at: Date) {
  await tx.execute(sql`
    insert into ${announcementReads} (announcement_id, account_id, read_at)
    select ${announcements.id}, ${accountId}, ${at.toISOString()}::timestamptz from ${announcements}
    where ${announcements.merchantId} = ${merchantId}
    on conflict do nothing`);
}

/** Unread station messages plus unread announcements, for each of the given accounts of a merchant. */
export async function unreadCounts(tx: Tx, merchantId: string, accountIds: string[]): Promise<Map<string, number>> {
  const result = new Map<string, number>(accountIds.map((id) => [id, 0]));
  if (accountIds.length === 0) return result;
  const messages = await tx
    .select({ accountId: stationMessages.accountId, n: count() })
    .from(stationMessages)
    .where(and(inArray(stationMessages.accountId, accountIds), isNull(stationMessages.readAt)))
    .groupBy(stationMessages.accountId);
  for (const row of messages) result.set(row.accountId, Number(row.n));
  const [published] = await tx.select({ n: count() }).from(announcements).where(eq(announcements.merchantId, merchantId));
  const total = Number(published?.n ?? 0);
  if (total > 0) {
    const reads = await tx
      .select({ accountId: announcementReads.accountId, n: count() })
      .from(announcementReads)
      .innerJoin(announcements, eq(announcements.id, announcementReads.announcementId))
      .where(and(eq(announcements.merchantId, merchantId), inArray(announcementReads.accountId, accountIds)))
      .groupBy(announcementReads.accountId);
    const readBy = new Map(reads.map((row) => [row.accountId, Number(row.n)]));
    for (const id of accountIds) result.set(id, (result.get(id) ?? 0) + total - (readBy.get(id) ?? 0));
  }
  return result;
}

