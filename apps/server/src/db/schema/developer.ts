/**
 * The open API's keys: each acts as the member who made it, with its scopes. The secret is kept only as
 * a keyed hash; its lookup prefix finds the row. A rotation keeps the replaced secret's hash for the
 * overlap.
 */
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts, memberRef } from './accounts.ts';
import { createdAt, ts } from './columns.ts';
import { merchantRef } from './merchants.ts';

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    memberId: memberRef(),
    name: text('name').notNull(),
    /** the 12 characters after `sk_`: finds the row */
    prefix: text('prefix').notNull(),
    secretHash: text('secret_hash').notNull(),
    /** after a rotation: the replaced secret's prefix and hash, valid until previous_until */
    previousPrefix: text('previous_prefix'),
    previousHash: text('previous_hash'),
    previousUntil: ts('previous_until'),
    scopes: text('scopes').array().notNull(),
    ipAllowlist: text('ip_allowlist').array().notNull().default(sql`'{}'::text[]`),
    expiresAt: ts('expires_at'),
    revokedAt: ts('revoked_at'),
    lastUsedAt: ts('last_used_at'),
    lastUsedIp: text('last_used_ip'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('api_keys_prefix_uq').on(t.prefix),
    uniqueIndex('api_keys_previous_prefix_uq').on(t.previousPrefix).where(sql`${t.previousPrefix} is not null`),
    index('api_keys_account').on(t.accountId, t.createdAt),
  ],
);

/**
 * Each key's calls in its current window of the rate limit (one row a key): shared by every server
 * process, which lease calls from it a few at a time (one upsert a lease, modules/api-keys/rate.ts).
 * UNLOGGED (the migration says so): a crash empties it, which only forgives the calls of the second it
 * happened in.
 */
export const apiKeyRate = pgTable('api_key_rate', {
  keyId: uuid('key_id').primaryKey(),
  windowStart: ts('window_start').notNull(),
  calls: integer('calls').notNull(),
});

/**
 * A key's write and its first answer under its Idempotency-Key (per account): the fingerprint of what
 * it asked (call, path parameters, body), and the answer once it has one (`status` null while the
 * first request runs). A refused request leaves no row, so the same key may be used again.
 */
export const apiKeyReplays = pgTable(
  'api_key_replays',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    key: text('key').notNull(),
    apiKeyId: uuid('api_key_id').notNull(),
    fingerprint: text('fingerprint').notNull(),
    status: integer('status'),
    answer: text('answer'),
    claimedAt: ts('claimed_at').notNull(),
    answeredAt: ts('answered_at'),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.key] })],
);
