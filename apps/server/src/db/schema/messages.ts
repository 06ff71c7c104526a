/** Station messages and announcements. */
import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accountRef } from './accounts.ts';
import { ts } from './columns.ts';
import { merchantRef } from './merchants.ts';

/**
 * A message to one account: notices, FREEZE, batch results. content is HTML, cleaned when shown. Who of
 * the account's members sees it: `member_id` and `holder_member_id` (every member when both are null).
 */
export const stationMessages = pgTable(
  'station_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    accountId: accountRef(),
    type: text('type').notNull().default('NOTICE'),
    title: text('title').notNull(),
    content: text('content').notNull(),
    status: text('status').notNull().default('success'),
    createdAt: ts('created_at').notNull(),
    readAt: ts('read_at'),
    /** a content that holds a secret for a while (a 3-D Secure code): from this instant on `expired_content` is shown, and stored in its place */
    contentExpiresAt: ts('content_expires_at'),
    expiredContent: text('expired_content'),
    /** only this member sees it (a change of their own security); null: as `holder_member_id` says */
    memberId: uuid('member_id'),
    /** a card's message: that card's holder and the roles that manage every card see it; null: every member */
    holderMemberId: uuid('holder_member_id'),
  },
  (t) => [index('station_messages_account_idx').on(t.accountId, t.createdAt), index('station_messages_unread_idx').on(t.accountId, t.readAt)],
);

/** A merchant's announcement: every account of the merchant sees it, each with its own read state. */
export const announcements = pgTable(
  'announcements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    status: text('status').notNull().default('success'),
    publishedAt: ts('published_at').notNull(),
  },
  (t) => [index('announcements_merchant_idx').on(t.merchantId, t.publishedAt)],
);

export const announcementReads = pgTable(
  'announcement_reads',
  {
    announcementId: uuid('announcement_id')
      .notNull()
      .references(() => announcements.id, { onDelete: 'cascade' }),
    accountId: accountRef(),
    readAt: ts('read_at').notNull(),
  },
  (t) => [uniqueIndex('announcement_reads_uq').on(t.accountId, t.announcementId)],
);
