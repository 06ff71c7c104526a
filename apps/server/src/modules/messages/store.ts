import { receivesEveryCardMessage, type Role } from '@portal/contract/team';
import { and, count, desc, eq, inArray, isNotNull, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { announcementReads, announcements, stationMessages } from '../../db/schema.ts';

export type StationMessageRow = typeof stationMessages.$inferSelect;

/** A member reading the account's messages: they see those for every member, their own, and their cards' (or every card's, by role). */
export interface Viewer {
  accountId: string;
  memberId: string;
  role: Role;
}

/** The account's station messages this member sees. */
export function seenBy(viewer: Viewer): SQL {
  return and(
    eq(stationMessages.accountId, viewer.accountId),
    or(isNull(stationMessages.memberId), eq(stationMessages.memberId, viewer.memberId)),
    receivesEveryCardMessage(viewer.role) ? undefined : or(isNull(stationMessages.holderMemberId), eq(stationMessages.holderMemberId, viewer.memberId)),
  ) as SQL;
}
export type AnnouncementRow = typeof announcements.$inferSelect;

export async function insertStationMessage(tx: Tx, values: typeof stationMessages.$inferInsert) {
  const [row] = await tx.insert(stationMessages).values(values).returning();
  if (!row) throw new Error('message insert returned nothing');
  return row;
}

/** Many station messages in one statement (their values as arrays: one text whatever the count); answers what their events tell. */
export async function insertStationMessages(
  tx: Tx,
  values: Array<{ merchantId: string; accountId: string; type: string; title: string; content: string; status: string; createdAt: Date; memberId: string | null; holderMemberId: string | null }>,
) {
  if (values.length === 0) return [];
  const column = (of: (v: (typeof values)[number]) => string | null) => sql.param(values.map(of));
  const rows = (
    (await tx.execute(sql`insert into station_messages (merchant_id, account_id, type, title, content, status, created_at, member_id, holder_member_id)
      select v.merchant_id, v.account_id, v.type, v.title, v.content, v.status, v.created_at, v.member_id, v.holder_member_id
      from unnest(${column((v) => v.merchantId)}::uuid[], ${column((v) => v.accountId)}::uuid[], ${column((v) => v.type)}::text[], ${column((v) => v.title)}::text[],
        ${column((v) => v.content)}::text[], ${column((v) => v.status)}::text[], ${column((v) => v.createdAt.toISOString())}::timestamptz[],
        ${column((v) => v.memberId)}::uuid[], ${column((v) => v.holderMemberId)}::uuid[]) with ordinality
        as v(merchant_id, account_id, type, title, content, status, created_at, member_id, holder_member_id, n)
      order by v.n
      returning id, merchant_id, account_id, type, title, content, status, member_id, holder_member_id`)) as unknown as { rows: Array<Record<string, unknown>> }
  ).rows;
  return rows.map((row) => ({
    id: String(row.id),
    merchantId: String(row.merchant_id),
    accountId: String(row.account_id),
    type: String(row.type),
    title: String(row.title),
    content: String(row.content),
    status: String(row.status),
    memberId: row.member_id === null ? null : String(row.member_id),
    holderMemberId: row.holder_member_id === null ? null : String(row.holder_member_id),
  }));
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

function messageFilter(viewer: Viewer, read: 'all' | 'read' | 'unread') {
  return and(
    seenBy(viewer),
    read === 'read' ? isNotNull(stationMessages.readAt) : read === 'unread' ? isNull(stationMessages.readAt) : undefined,
  );
}

export async function pageStationMessages(tx: Tx, viewer: Viewer, read: 'all' | 'read' | 'unread', limit: number, offset: number) {
  const where = messageFilter(viewer, read);
  const [rows, totals] = await Promise.all([
    tx.select().from(stationMessages).where(where).orderBy(desc(stationMessages.createdAt), desc(stationMessages.id)).limit(limit).offset(offset),
    tx.select({ n: count() }).from(stationMessages).where(where),
  ]);
  return { rows, total: Number(totals[0]?.n ?? 0) };
}

const isReadBy = (accountId: string) =>
  sql<boolean>`exists (select 1 from ${announcementReads} where ${announcementReads.announcementId} = ${announcements.id} and ${announcementReads.accountId} = ${accountId})`;

/** A page of the merchant's announcements, newest first, as its operators list them (no reader's state). */
export async function pageMerchantAnnouncements(tx: Tx, merchantId: string, limit: number, offset: number) {
  const where = eq(announcements.merchantId, merchantId);
  const [rows, totals] = await Promise.all([
    tx.select().from(announcements).where(where).orderBy(desc(announcements.publishedAt), desc(announcements.id)).limit(limit).offset(offset),
    tx.select({ n: count() }).from(announcements).where(where),
  ]);
  return { rows, total: Number(totals[0]?.n ?? 0) };
}

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

export async function findStationMessage(tx: Tx, viewer: Viewer, id: string) {
  const rows = await tx
    .select()
    .from(stationMessages)
    .where(and(seenBy(viewer), eq(stationMessages.id, id)))
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

export async function markStationMessageRead(tx: Tx, viewer: Viewer, id: string, at: Date) {
  await tx
    .update(stationMessages)
    .set({ readAt: at })
    .where(and(seenBy(viewer), eq(stationMessages.id, id), isNull(stationMessages.readAt)));
}

export async function markAnnouncementRead(tx: Tx, accountId: string, id: string, at: Date) {
  await tx.insert(announcementReads).values({ accountId, announcementId: id, readAt: at }).onConflictDoNothing();
}

export async function markAllStationMessagesRead(tx: Tx, viewer: Viewer, at: Date) {
  await tx
    .update(stationMessages)
    .set({ readAt: at })
    .where(and(seenBy(viewer), isNull(stationMessages.readAt)));
}

export async function markAllAnnouncementsRead(tx: Tx, merchantId: string, accountId: string, at: Date) {
  await tx.execute(sql`
    insert into ${announcementReads} (announcement_id, account_id, read_at)
    select ${announcements.id}, ${accountId}, ${at.toISOString()}::timestamptz from ${announcements}
    where ${announcements.merchantId} = ${merchantId}
    on conflict do nothing`);
}

/**
 * Unread station messages each member sees plus the account's unread announcements, for each of the
 * given members of a merchant's accounts, by member id; two statements whatever their number.
 */
export async function unreadCounts(tx: Tx, merchantId: string, viewers: Viewer[]): Promise<Map<string, number>> {
  const result = new Map<string, number>(viewers.map((viewer) => [viewer.memberId, 0]));
  if (viewers.length === 0) return result;
  const rows = viewers.map((viewer) => sql`(${viewer.accountId}::uuid, ${viewer.memberId}::uuid, ${receivesEveryCardMessage(viewer.role)}::boolean)`);
  const { rows: messages } = (await tx.execute(sql`
    select v.member_id, count(m.id)::int as n
    from (values ${sql.join(rows, sql`, `)}) as v(account_id, member_id, every_card)
    join ${stationMessages} m on m.account_id = v.account_id and m.read_at is null
      and (m.member_id is null or m.member_id = v.member_id)
      and (v.every_card or m.holder_member_id is null or m.holder_member_id = v.member_id)
    group by v.member_id`)) as unknown as { rows: Array<{ member_id: string; n: number }> };
  for (const row of messages) result.set(row.member_id, Number(row.n));
  const [published] = await tx.select({ n: count() }).from(announcements).where(eq(announcements.merchantId, merchantId));
  const total = Number(published?.n ?? 0);
  if (total > 0) {
    const accountIds = [...new Set(viewers.map((viewer) => viewer.accountId))];
    const reads = await tx
      .select({ accountId: announcementReads.accountId, n: count() })
      .from(announcementReads)
      .innerJoin(announcements, eq(announcements.id, announcementReads.announcementId))
      .where(and(eq(announcements.merchantId, merchantId), inArray(announcementReads.accountId, accountIds)))
      .groupBy(announcementReads.accountId);
    const readBy = new Map(reads.map((row) => [row.accountId, Number(row.n)]));
    for (const viewer of viewers) result.set(viewer.memberId, (result.get(viewer.memberId) ?? 0) + total - (readBy.get(viewer.accountId) ?? 0));
  }
  return result;
}
