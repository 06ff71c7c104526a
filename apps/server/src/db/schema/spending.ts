/** What a card spends: the issuer's events, card transactions, controls and charges owed. */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { cards } from './cards.ts';
import { minorUnits, ts } from './columns.ts';
import { merchantRef } from './merchants.ts';

/**
 * Every event a card issuer sent, by its id: an id seen before is answered again and not processed
 * twice. `outcome`: processed (a module handled it) or ignored (no module handles its type).
 */
export const issuerEvents = pgTable('issuer_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  outcome: text('outcome').notNull(),
  receivedAt: ts('received_at').notNull(),
});

/**
 * A card's own movements as its holder reads them (cards.md "Card transaction"): a top-up is a TRANSFER_IN
 * of the card, a withdrawal a TRANSFER_OUT; the spending issue adds CONSUME, REFUND and ADJUST_IN.
 * `ledger_transaction_id` ties a row to the posting that moved its money.
 */
export const cardTransactions = pgTable(
  'card_transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    type: text('type').notNull(),
    status: text('status').notNull(),
    amount: minorUnits('amount').notNull(),
    currency: text('currency').notNull(),
    merchantName: text('merchant_name'),
    mcc: text('mcc'),
    country: text('country'),
    declineReason: text('decline_reason'),
    /** the decline's code (contract card-spending.ts DECLINE_CODES); null unless the authorisation was declined */
    declineCode: text('decline_code'),
    /** the issuer's authorisation id: of the authorisation itself (CONSUME, unique per card), or the one a refund names */
    authorizationId: text('authorization_id'),
    /** what was authorised (CONSUME); `amount` becomes the settled amount */
    authorizedAmount: minorUnits('authorized_amount'),
    /** the ledger hold on the card while the authorisation is PENDING */
    holdId: uuid('hold_id'),
    /** an adjustment's memo from the issuer */
    memo: text('memo'),
    ledgerTransactionId: uuid('ledger_transaction_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    settledAt: ts('settled_at'),
  },
  (t) => [
    index('card_transactions_card_created').on(t.cardId, t.createdAt.desc(), t.id.desc()),
    // every card's transactions of an account, newest first (GET /card/transactions), and the spending
    // summary: migration 0029 gives it INCLUDE columns (not drawn here) so the summary reads the index alone
    index('card_transactions_account_created').on(t.accountId, t.createdAt.desc(), t.id.desc()),
    // the console's transactions across every customer, newest first
    index('card_transactions_merchant_created').on(t.merchantId, t.createdAt.desc(), t.id.desc()),
    uniqueIndex('card_transactions_ledger_uq').on(t.ledgerTransactionId),
    uniqueIndex('card_transactions_authorization_uq').on(t.cardId, t.authorizationId).where(sql`${t.type} = 'CONSUME'`),
    index('card_transactions_authorization').on(t.authorizationId),
    // the card list's figures over an account's cards (spent this month, the 30-day decline rate), sorted by them
    index('card_transactions_account_consume')
      .on(t.accountId, t.createdAt)
      .where(sql`${t.type} = 'CONSUME'`),
    // the hold-expiry job's search: the few authorisations still pending, oldest first
    index('card_transactions_pending').on(t.createdAt).where(sql`${t.status} = 'PENDING'`),
    check('card_transactions_amount', sql`${t.amount} > 0`),
  ],
);

/**
 * Each card's list figures, kept by the trigger on card_transactions (migration 0034) in the statement
 * that writes an authorisation, so that sorting the card list reads one row a card. What a figure means
 * at a moment, and how a month or a day gone by reads as nothing, is db/card-figures.ts.
 * - `spent`: approved and settled (PENDING and CLOSED) CONSUME amounts of the China month `spent_month`
 *   (year × 12 + month − 1), the latest month of any of the card's authorisations.
 * - `window_day`: the latest China day (days since 1970-01-01) of its authorisations; `authorised` and
 *   `declined`: how many of all its authorisations carry an authorisation id, and a decline code;
 *   `authorised_before[k % 30 + 1]` / `declined_before[…]`: the same counts over the days before day k,
 *   for each of the 30 days k up to `window_day` — so the last 30 days' counts are two subtractions.
 * - `last_used_at`: its latest authorisation.
 */
export const cardFigures = pgTable(
  'card_figures',
  {
    cardId: uuid('card_id')
      .primaryKey()
      .references(() => cards.id),
    accountId: uuid('account_id').notNull(),
    spentMonth: integer('spent_month').notNull(),
    spent: minorUnits('spent').notNull(),
    windowDay: integer('window_day').notNull(),
    authorised: integer('authorised').notNull(),
    declined: integer('declined').notNull(),
    authorisedBefore: integer('authorised_before').array().notNull(),
    declinedBefore: integer('declined_before').array().notNull(),
    lastUsedAt: ts('last_used_at'),
  },
  // the card list's figure sorts read an account's rows (modules/cards/store.ts pageCards)
  (t) => [index('card_figures_account').on(t.accountId)],
);

/**
 * Each card's authorisations per China day (days since 1970-01-01) and currency, kept by the same
 * trigger: what was spent (PENDING and CLOSED), how many were asked, how many declined — the spending
 * summary reads these instead of the rows when it filters by nothing a row alone knows.
 */
export const cardSpendDays = pgTable(
  'card_spend_days',
  {
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id),
    day: integer('day').notNull(),
    currency: text('currency').notNull(),
    merchantId: uuid('merchant_id').notNull(),
    accountId: uuid('account_id').notNull(),
    amount: minorUnits('amount').notNull(),
    count: integer('count').notNull(),
    declined: integer('declined').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.cardId, t.day, t.currency] }),
    // the summary's range of an account: migration 0034 gives it INCLUDE columns (not drawn here), read from the index alone
    index('card_spend_days_account_day').on(t.accountId, t.day),
  ],
);

/** A card's controls, set by its holder and obeyed by every authorisation (cards.md "Spending"); no row: no limits. */
export const cardControls = pgTable('card_controls', {
  cardId: uuid('card_id')
    .primaryKey()
    .references(() => cards.id),
  /** minor units of the card's currency; null: no limit */
  singleLimit: minorUnits('single_limit'),
  dailyLimit: minorUnits('daily_limit'),
  monthlyLimit: minorUnits('monthly_limit'),
  blockedCategories: text('blocked_categories').array().notNull().default(sql`'{}'::text[]`),
  /** ISO 3166 alpha-2; empty: every country */
  allowedCountries: text('allowed_countries').array().notNull().default(sql`'{}'::text[]`),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * What a customer owes that the wallet or card could not pay when it was due: the part of a declined
 * authorisation's fee (DECLINED_FEE) the wallet did not hold, or the part of a settlement above its
 * authorisation (SETTLEMENT_OVER) the card did not hold. Nothing ever goes below zero; the debt is kept here.
 */
export const chargesOwed = pgTable(
  'charges_owed',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    cardId: uuid('card_id').references(() => cards.id),
    kind: text('kind').notNull(),
    currency: text('currency').notNull(),
    amount: minorUnits('amount').notNull(),
    authorizationId: text('authorization_id').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** what the next money in to the wallet has collected of it so far; paid off when it equals `amount` */
    collected: minorUnits('collected').notNull().default(sql`0`),
    collectedAt: ts('collected_at'),
  },
  (t) => [
    uniqueIndex('charges_owed_authorization_uq').on(t.kind, t.authorizationId),
    index('charges_owed_account').on(t.merchantId, t.accountId),
    check('charges_owed_amount', sql`${t.amount} > 0`),
    check('charges_owed_kind', sql`${t.kind} in ('DECLINED_FEE', 'SETTLEMENT_OVER')`),
    check('charges_owed_collected', sql`${t.collected} >= 0 and ${t.collected} <= ${t.amount}`),
    index('charges_owed_open').on(t.merchantId, t.accountId, t.currency).where(sql`${t.collected} < ${t.amount}`),
  ],
);
