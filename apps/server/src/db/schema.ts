import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

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


const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 6 });

/** A merchant's customer manager; an invitation code ties a new account to one. */
export const customerManagers = pgTable(
  'customer_managers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** stored upper case; codes are matched without regard to case */
    invitationCode: text('invitation_code').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('customer_managers_code_uq').on(t.merchantId, t.invitationCode)],
);

export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id, { onDelete: 'cascade' }),
    phonePrefix: text('phone_prefix').notNull().default('86'),
    phone: text('phone').notNull(),
    /** stored lower case */
    email: text('email'),
    passwordHash: text('password_hash').notNull(),
    trxPasswordHash: text('trx_password_hash'),
    managerId: uuid('manager_id').references(() => customerManagers.id, { onDelete: 'set null' }),
    status: text('status').notNull().default('ACTIVE'),
    failedLogins: integer('failed_logins').notNull().default(0),
    failedWindowStart: ts('failed_window_start'),
    lockedUntil: ts('locked_until'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('accounts_phone_uq').on(t.merchantId, t.phonePrefix, t.phone),
    uniqueIndex('accounts_email_uq').on(t.merchantId, t.email),
  ],
);

/**
 * A sign-in. Only the SHA-256 of the token is kept. stage: VERIFY (second verification pending),
 * BIND_EMAIL (account has no e-mail yet), FULL.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    stage: text('stage').notNull(),
    /** for VERIFY: where the access code goes, SEND_TYPE_PHONE or SEND_TYPE_EMAIL */
    verifyChannel: text('verify_channel'),
    userAgent: text('user_agent').notNull().default(''),
    ip: text('ip').notNull().default(''),
    createdAt: ts('created_at').notNull(),
    lastSeenAt: ts('last_seen_at').notNull(),
    revokedAt: ts('revoked_at'),
    revokeReason: text('revoke_reason'),
  },
  (t) => [uniqueIndex('sessions_token_uq').on(t.tokenHash), index('sessions_account_idx').on(t.accountId)],
);

/**
 * One-time codes: 6 digits, stored as a salted SHA-256, bound to (merchant, target, purpose).
 * target is "phone:86:13800000000" or "email:a@b.c".
 */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id, { onDelete: 'cascade' }),
    target: text('target').notNull(),
    purpose: text('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    ip: text('ip').notNull().default(''),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    /** set when a newer code for the same target and purpose replaced this one */
    supersededAt: ts('superseded_at'),
  },
  (t) => [
    index('verification_codes_target_idx').on(t.merchantId, t.target, t.purpose, t.createdAt),
    index('verification_codes_target_day_idx').on(t.merchantId, t.target, t.createdAt),
    index('verification_codes_ip_idx').on(t.ip, t.createdAt),
  ],
);

/** "30天内此设备免验证": a device secret (hashed) that skips the second verification until it expires. */
export const trustedDevices = pgTable(
  'trusted_devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    secretHash: text('secret_hash').notNull(),
    label: text('label').notNull().default(''),
    createdAt: ts('created_at').notNull(),
    lastUsedAt: ts('last_used_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [uniqueIndex('trusted_devices_secret_uq').on(t.secretHash), index('trusted_devices_account_idx').on(t.accountId)],
);

/** Single-use permission to set a new password, issued by a successful phone code check. */
export const resetTickets = pgTable(
  'reset_tickets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    ticketHash: text('ticket_hash').notNull(),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [uniqueIndex('reset_tickets_hash_uq').on(t.ticketHash)],
);


/** A message to one account: notices, FREEZE, batch results. content is HTML, cleaned when shown. */
export const stationMessages = pgTable(
  'station_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    type: text('type').notNull().default('NOTICE'),
    title: text('title').notNull(),
    content: text('content').notNull(),
    status: text('status').notNull().default('success'),
    createdAt: ts('created_at').notNull(),
    readAt: ts('read_at'),
  },
  (t) => [index('station_messages_account_idx').on(t.accountId, t.createdAt), index('station_messages_unread_idx').on(t.accountId, t.readAt)],
);

/** A merchant's announcement: every account of the merchant sees it, each with its own read state. */
export const announcements = pgTable(
  'announcements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id, { onDelete: 'cascade' }),
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
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    readAt: ts('read_at').notNull(),
  },
  (t) => [uniqueIndex('announcement_reads_uq').on(t.accountId, t.announcementId)],
);
