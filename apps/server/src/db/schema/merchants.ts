/** The merchant and what it sets up before any customer: its hosts, agreements and customer managers. */
import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';

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
  /** where links in mail point, scheme://host[:port] (merchant:set --origin); '' for none */
  origin: text('origin').notNull().default(''),
  /** further branding fields, kept whole */
  extra: jsonb('extra').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The merchant a row belongs to; its rows go with it. */
export const merchantRef = () =>
  uuid('merchant_id')
    .notNull()
    .references(() => merchants.id, { onDelete: 'cascade' });

export const merchantHosts = pgTable('merchant_hosts', {
  host: text('host').primaryKey(),
  merchantId: merchantRef(),
  createdAt: createdAt(),
});

export const agreements = pgTable(
  'agreements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    title: text('title').notNull(),
    text: text('text').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('agreements_merchant_idx').on(t.merchantId, t.publishedAt)],
);

/** A merchant's customer manager; an invitation code ties a new account to one. */
export const customerManagers = pgTable(
  'customer_managers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    name: text('name').notNull(),
    /** stored upper case; codes are matched without regard to case */
    invitationCode: text('invitation_code').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('customer_managers_code_uq').on(t.merchantId, t.invitationCode)],
);
