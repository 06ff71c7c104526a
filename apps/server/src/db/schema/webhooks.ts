/**
 * Customers' webhooks: endpoints, the outbox of events (written in the transaction of the change that
 * causes each), one delivery per event and subscribed endpoint, and the log of each try. An endpoint's
 * secret signs every send, so it is kept sealed (lib/sealed.ts), not hashed.
 */
import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { accounts, memberRef } from './accounts.ts';
import { createdAt, ts } from './columns.ts';
import { merchantRef } from './merchants.ts';

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    memberId: memberRef(),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    description: text('description').notNull().default(''),
    /** the whsec_… secret, sealed */
    secretSealed: text('secret_sealed').notNull(),
    secretHint: text('secret_hint').notNull(),
    /** ACTIVE | DISABLED */
    status: text('status').notNull().default('ACTIVE'),
    /** MANUAL | FAILING */
    disabledReason: text('disabled_reason'),
    /** the first failed try since the last success */
    failingSince: ts('failing_since'),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_endpoints_account').on(t.accountId, t.createdAt)],
);

export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: uuid('merchant_id').notNull(),
    accountId: uuid('account_id').notNull(),
    type: text('type').notNull(),
    /** the card the event is about: a card's events reach each endpoint in the order they happened */
    orderKey: text('order_key'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    index('webhook_events_account').on(t.accountId, t.createdAt),
    // the daily pruning takes events past their keeping time, oldest first
    index('webhook_events_created').on(t.createdAt),
  ],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** the order deliveries were written in: a card's earlier event goes first */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id').notNull(),
    orderKey: text('order_key'),
    /** PENDING | DELIVERED | FAILED */
    status: text('status').notNull().default('PENDING'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull(),
    firstAttemptAt: ts('first_attempt_at'),
    /** a process sending it holds it until then; past it, the send is taken as lost and made again */
    leaseUntil: ts('lease_until'),
    deliveredAt: ts('delivered_at'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    index('webhook_deliveries_order').on(t.endpointId, t.orderKey, t.seq).where(sql`${t.status} = 'PENDING'`),
    index('webhook_deliveries_endpoint').on(t.endpointId, t.createdAt),
    // an event's deliveries: whether any is still pending, and those its deletion takes with it
    index('webhook_deliveries_event').on(t.eventId),
    index('webhook_deliveries_pending').on(t.nextAttemptAt).where(sql`${t.status} = 'PENDING'`),
    // the senders take pending deliveries in the order they were written
    index('webhook_deliveries_queue').on(t.seq).where(sql`${t.status} = 'PENDING'`),
  ],
);

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    at: ts('at').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    answerExcerpt: text('answer_excerpt').notNull().default(''),
    durationMs: integer('duration_ms').notNull(),
  },
  (t) => [index('webhook_attempts_delivery').on(t.deliveryId, t.at)],
);
