/** Money: the double-entry ledger (product.md §3; docs/money.md) and the keys that make a money call happen once. */
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, bigint, boolean, check, index, jsonb, pgTable, primaryKey, smallint, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accountRef, accounts } from './accounts.ts';
import { createdAt, minorUnits, ts } from './columns.ts';
import { merchants } from './merchants.ts';

/**
 * A ledger account, per merchant and currency: one per customer wallet (WALLET), one per card (CARD),
 * and the merchant's own MERCHANT_FUNDING, MERCHANT_FEE_INCOME and CARD_NETWORK. balance (minor units)
 * always equals the sum of its postings; held is the sum of its active holds (the wallet's "anew").
 * The customer's accounts never have less than zero available (balance − held); the merchant's own
 * mirror them, so per currency every balance sums to zero.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    currency: text('currency').notNull(),
    kind: text('kind').notNull(),
    /** the customer account (WALLET), the card (CARD), or the merchant itself for its own accounts */
    ownerId: uuid('owner_id').notNull(),
    /** the customer whose money it is (WALLET, CARD); null for the merchant's own accounts */
    holderId: uuid('holder_id').references(() => accounts.id),
    /**
     * The merchant's own accounts are kept in several rows (shards) of the same kind, each a ledger
     * account of its own: every recharge or deduction updates one, and one row for them all would make
     * every such movement of the merchant wait for the one before it. The customer's are shard 0.
     */
    shard: smallint('shard').notNull().default(0),
    balance: minorUnits('balance').notNull().default(sql`0`),
    held: minorUnits('held').notNull().default(sql`0`),
    /**
     * WALLET only: the wallet is frozen (wallets.status), kept on the row every movement locks, so that
     * a freeze and a movement of the same wallet are ordered by that row's lock
     */
    frozen: boolean('frozen').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_accounts_owner_uq').on(t.merchantId, t.currency, t.kind, t.ownerId, t.shard),
    index('ledger_accounts_holder_idx').on(t.holderId, t.kind),
    check('ledger_accounts_held_ck', sql`held >= 0`),
    // the last line of defence behind the service's own check: a customer never owes money
    check('ledger_accounts_customer_ck', sql`kind not in ('WALLET', 'CARD') or balance - held >= 0`),
  ],
);

/**
 * One operation: a balanced set of postings written in one database transaction. type is one of the
 * wallet transaction types (spec §3) or, for movements between a card and the network, a card one.
 * A correction is a new transaction that reverses an earlier one (reverses_id), never an edit.
 *
 * Rows written by every movement of money (transactions, holds, idempotency keys) carry merchant_id
 * and holder_id without foreign keys: a key check would share-lock the one merchant row from every
 * concurrent movement. Both are checked where it costs nothing: the ledger accounts they move have
 * those foreign keys, and a movement only reaches accounts of its own merchant.
 */
export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: uuid('merchant_id').notNull(),
    currency: text('currency').notNull(),
    type: text('type').notNull(),
    /** the customer the operation concerns */
    holderId: uuid('holder_id'),
    /** what it belongs to, e.g. card:<id>, batch:<id>, ops:<key> */
    reference: text('reference').notNull().default(''),
    /** a note shown with the row */
    memo: text('memo').notNull().default(''),
    reversesId: uuid('reverses_id').references((): AnyPgColumn => ledgerTransactions.id),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ledger_transactions_reverses_uq')
      .on(t.reversesId)
      .where(sql`reverses_id is not null`),
  ],
);

/** The lines of a transaction: amount (signed minor units) added to one ledger account. Append-only. */
export const ledgerPostings = pgTable(
  'ledger_postings',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    transactionId: uuid('transaction_id')
      .notNull()
      .references(() => ledgerTransactions.id),
    ledgerAccountId: uuid('ledger_account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    amount: minorUnits('amount').notNull(),
    /** the account's balance right after this posting */
    balanceAfter: minorUnits('balance_after').notNull(),
    /** the transaction's type and time, kept beside each line for the wallet's list and its filters */
    type: text('type').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    index('ledger_postings_account_idx').on(t.ledgerAccountId, t.createdAt, t.id),
    index('ledger_postings_transaction_idx').on(t.transactionId),
    check('ledger_postings_amount_ck', sql`amount <> 0`),
  ],
);

/** Money held on a customer's account for an operation in flight; posted or released exactly once. */
export const ledgerHolds = pgTable(
  'ledger_holds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: uuid('merchant_id').notNull(),
    ledgerAccountId: uuid('ledger_account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    holderId: uuid('holder_id').notNull(),
    currency: text('currency').notNull(),
    amount: minorUnits('amount').notNull(),
    /** ACTIVE, POSTED or RELEASED */
    status: text('status').notNull().default('ACTIVE'),
    reference: text('reference').notNull().default(''),
    createdAt: ts('created_at').notNull(),
    settledAt: ts('settled_at'),
    /** the transaction that posted it */
    settledTransactionId: uuid('settled_transaction_id').references(() => ledgerTransactions.id),
  },
  (t) => [
    index('ledger_holds_active_idx')
      .on(t.ledgerAccountId)
      .where(sql`status = 'ACTIVE'`),
    // the wallet's list finds the hold a posting settled, and from it the card or batch it was for
    index('ledger_holds_settled_transaction_idx')
      .on(t.settledTransactionId)
      .where(sql`settled_transaction_id is not null`),
    check('ledger_holds_amount_ck', sql`amount > 0`),
  ],
);

/**
 * Idempotency keys of money operations, per merchant: the hash of the first request and its answer.
 * A key is kept only with an operation that committed; a refused one leaves no trace.
 */
export const ledgerIdempotencyKeys = pgTable(
  'ledger_idempotency_keys',
  {
    merchantId: uuid('merchant_id').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    answer: jsonb('answer'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.key] })],
);

/**
 * A customer's Idempotency-Key and the one call it belongs to (method and route), with a digest of the
 * request it first confirmed (body without the trade password, and the path's parameters): another call
 * with the key is refused, the same request again answers its first answer without asking anew.
 */
export const requestKeys = pgTable(
  'request_keys',
  {
    accountId: accountRef(),
    key: text('key').notNull(),
    operation: text('operation').notNull(),
    requestHash: text('request_hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.key] })],
);

/**
 * Balances someone wants to hear about (an auto top-up rule, a low-balance alert): a movement that
 * leaves a customer's account below, or moves it while below, the highest `below` of the account's
 * watches is handed to the ledger's watcher inside the movement's transaction. `ownerId` null: every
 * account of that kind of the holder (every card); `currency` null: in any currency. One row per
 * holder and `watchKey` (who watches what), so a watcher replaces its own.
 */
export const ledgerWatches = pgTable(
  'ledger_watches',
  {
    holderId: uuid('holder_id')
      .notNull()
      .references(() => accounts.id),
    watchKey: text('watch_key').notNull(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    kind: text('kind').notNull(),
    ownerId: uuid('owner_id'),
    currency: text('currency'),
    below: minorUnits('below').notNull(),
  },
  (t) => [primaryKey({ columns: [t.holderId, t.watchKey] })],
);
