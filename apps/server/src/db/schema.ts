import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const merchants = pgTable('merchants', {
  id: uuid('id').primaryKey().defaultRandom(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  color: text('color').notNull().default('MERCHANT_COLOR_BLUE'),
  website: text('website').notNull(),
  favicon: text('favicon').notNull().default(''),
  darkLogo: text('dark_logo').notNull().default(''),
  lightLogo: text('light_logo').notNull().default(''),
  icp: text('icp').notNull().default(''),
  version: text('version').notNull().default(''),
  supportEmail: text('support_email').notNull().default(''),
  /** further branding fields, kept whole */
  extra: jsonb('extra').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const merchantHosts = pgTable('merchant_hosts', {
  host: text('host').primaryKey(),
  merchantId: uuid('merchant_id')
    .notNull()
    .references(() => merchants.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
});

export const agreements = pgTable(
  'agreements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    text: text('text').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('agreements_merchant_idx').on(t.merchantId, t.publishedAt)],
);

/** Every SMS and e-mail the development providers "sent"; absent from answers in production. */
export const devOutbox = pgTable(
  'dev_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channel: text('channel').notNull(),
    to: text('to').notNull(),
    subject: text('subject').notNull().default(''),
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 6 })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [index('dev_outbox_created_idx').on(t.createdAt)],
);

