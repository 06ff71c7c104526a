/** Money that moves by itself and balances that are watched: auto top-up rules and their runs, low-balance alerts. */
import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { cards } from './cards.ts';
import { minorUnits, ts } from './columns.ts';
import { merchantRef } from './merchants.ts';

/**
 * A card's auto top-up rule: below `threshold` (available), topped up to `target` from the wallet, at most
 * `dailyMax` a China-time day. PAUSED when the wallet could not pay, until it is funded. `pending`: the
 * card was below the threshold when the rule was set, which counts as a crossing at its next movement.
 */
export const cardAutoRecharge = pgTable('card_auto_recharge', {
  cardId: uuid('card_id')
    .primaryKey()
    .references(() => cards.id),
  merchantId: merchantRef(),
  accountId: uuid('account_id')
    .notNull()
    .references(() => accounts.id),
  currency: text('currency').notNull(),
  enabled: boolean('enabled').notNull(),
  threshold: minorUnits('threshold').notNull(),
  target: minorUnits('target').notNull(),
  dailyMax: minorUnits('daily_max').notNull(),
  /** ACTIVE | PAUSED */
  status: text('status').notNull(),
  pausedReason: text('paused_reason'),
  pending: boolean('pending').notNull().default(false),
  updatedAt: ts('updated_at').notNull(),
  /** CARD: set on the card itself (it wins); TAG: the rule of `sourceTag`, kept here while it is the one in force */
  source: text('source').notNull().default('CARD'),
  sourceTag: text('source_tag'),
});

/**
 * An account's auto top-up rule for a tag: in force on every card carrying the tag that has no rule of its
 * own; of several tags' rules the highest target wins (then the higher threshold, then the tag's name).
 * The rule in force is written onto each card's row (`card_auto_recharge`, source TAG), so the ledger's
 * watch and the runs read one row a card whatever its tags.
 */
export const tagAutoRecharge = pgTable(
  'tag_auto_recharge',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    tag: text('tag').notNull(),
    merchantId: merchantRef(),
    enabled: boolean('enabled').notNull(),
    threshold: minorUnits('threshold').notNull(),
    target: minorUnits('target').notNull(),
    dailyMax: minorUnits('daily_max').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.tag] })],
);

/**
 * An e-mail of a paused rule, one per recipient, written in the pause's transaction and sent after it by a
 * job that claims it for a while (`claimedUntil`): a claim whose process died runs out and the next run
 * sends it; `mailedAt` is set only once it went out.
 */
export const autoRechargePauseMails = pgTable(
  'auto_recharge_pause_mails',
  {
    id: uuid('id').primaryKey(),
    merchantId: merchantRef(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id),
    runId: uuid('run_id').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    createdAt: ts('created_at').notNull(),
    claimedUntil: ts('claimed_until'),
    mailedAt: ts('mailed_at'),
  },
  (t) => [index('auto_recharge_pause_mails_unsent_idx').on(t.createdAt).where(sql`mailed_at is null`)],
);

/**
 * One crossing of a rule's threshold, written in the transaction of the movement that crossed it (so a
 * crash cannot lose it), and the top-up a job made of it: its id is the top-up's Idempotency-Key.
 */
export const autoRechargeRuns = pgTable(
  'auto_recharge_runs',
  {
    id: uuid('id').primaryKey(),
    merchantId: merchantRef(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id),
    /** PENDING | DONE | FAILED | SKIPPED */
    status: text('status').notNull(),
    /** what it tops up, fixed before the money moves (a retry moves the same amount under the same key) */
    amount: minorUnits('amount'),
    reason: text('reason'),
    createdAt: ts('created_at').notNull(),
    finishedAt: ts('finished_at'),
  },
  (t) => [index('auto_recharge_runs_card_idx').on(t.cardId, t.createdAt)],
);

/** The account's low-balance thresholds: per wallet currency (minor units as text), and one for every card. */
export const balanceAlertSettings = pgTable('balance_alert_settings', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id),
  merchantId: merchantRef(),
  wallet: jsonb('wallet').$type<Record<string, string>>().notNull(),
  cardDefault: minorUnits('card_default'),
  updatedAt: ts('updated_at').notNull(),
});

/** A balance already below a threshold when it was set: one alert at its next movement (`subject`: WALLET:USD, CARD:<id>). */
export const balanceAlertMarks = pgTable(
  'balance_alert_marks',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    subject: text('subject').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.subject] })],
);

/** Each alert, written with the movement that crossed; a job posts its message and sends its e-mails once. */
export const balanceAlerts = pgTable('balance_alerts', {
  id: uuid('id').primaryKey(),
  merchantId: merchantRef(),
  accountId: uuid('account_id')
    .notNull()
    .references(() => accounts.id),
  cardId: uuid('card_id').references(() => cards.id),
  currency: text('currency').notNull(),
  threshold: minorUnits('threshold').notNull(),
  balance: minorUnits('balance').notNull(),
  createdAt: ts('created_at').notNull(),
  messagedAt: ts('messaged_at'),
  mailedAt: ts('mailed_at'),
});
