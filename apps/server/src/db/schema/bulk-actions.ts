/** Bulk actions on many cards and their per-card items. */
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts, members } from './accounts.ts';
import { cards } from './cards.ts';
import { minorUnits, ts } from './columns.ts';
import { merchantRef } from './merchants.ts';

/**
 * One bulk action (POST /card/bulk-actions): the action, its params, and who started it. Its cards
 * are its items, made when it is accepted; a job's workers act on them one at a time.
 */
export const cardBulkActions = pgTable(
  'card_bulk_actions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    /** the member who started it: the cards are acted on as they may, and the result message is theirs */
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id),
    /** set when the starter acts on the cards they hold only (a MEMBER) */
    heldBy: uuid('held_by'),
    action: text('action').notNull(),
    params: jsonb('params').$type<Record<string, unknown>>().notNull(),
    /** PENDING | RUNNING | DONE */
    status: text('status').notNull(),
    total: integer('total').notNull(),
    succeeded: integer('succeeded').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    /** the Idempotency-Key of the request, per account, and a digest of its body */
    requestKey: text('request_key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    createdAt: ts('created_at').notNull(),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    uniqueIndex('card_bulk_actions_key_uq').on(t.accountId, t.requestKey),
    index('card_bulk_actions_account_created').on(t.accountId, t.createdAt),
    check('card_bulk_actions_status', sql`${t.status} in ('PENDING', 'RUNNING', 'DONE')`),
    check('card_bulk_actions_counts', sql`${t.succeeded} >= 0 and ${t.failed} >= 0 and ${t.succeeded} + ${t.failed} <= ${t.total}`),
  ],
);

/**
 * A card of a bulk action: PENDING until a worker claims it (RUNNING, with a lease), then SUCCEEDED or
 * FAILED with the reason. A RUNNING item whose lease ran out (its worker died) is claimed again.
 */
export const cardBulkItems = pgTable(
  'card_bulk_items',
  {
    bulkId: uuid('bulk_id')
      .notNull()
      .references(() => cardBulkActions.id, { onDelete: 'cascade' }),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id),
    position: integer('position').notNull(),
    state: text('state').notNull(),
    reason: text('reason'),
    /** times claimed: more than one means a worker died holding it */
    attempts: integer('attempts').notNull().default(0),
    leaseUntil: ts('lease_until'),
    /** RECHARGE: the top-up planned at acceptance and the hold on the wallet that pays it with its fee */
    amount: minorUnits('amount'),
    holdId: uuid('hold_id'),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    primaryKey({ name: 'card_bulk_items_pkey', columns: [t.bulkId, t.cardId] }),
    index('card_bulk_items_open').on(t.bulkId, t.position).where(sql`state in ('PENDING', 'RUNNING')`),
    check('card_bulk_items_state', sql`${t.state} in ('PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED')`),
  ],
);
