/** Verification codes and what the development providers sent. */
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { merchantRef } from './merchants.ts';

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

/**
 * One-time codes: 6 digits, stored as a salted SHA-256, bound to (merchant, target, purpose).
 * target is "phone:86:13800000000" or "email:a@b.c".
 */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
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
