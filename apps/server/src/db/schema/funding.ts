/**
 * Money in: the merchant's receiving accounts, each customer account's reference code, top-ups (a
 * customer's notice or a statement line that named a reference), their receipt images and every bank
 * statement line imported. A later USDT deposit lives in `deposits` as kind USDT with its confirmations.
 */
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { createdAt, minorUnits, ts } from './columns.ts';
import { merchantRef } from './merchants.ts';

/** Where the merchant's customers transfer to, per currency (merchant:set-deposit-account). */
export const depositAccounts = pgTable(
  'deposit_accounts',
  {
    merchantId: merchantRef(),
    currency: text('currency').notNull(),
    bankName: text('bank_name').notNull(),
    accountName: text('account_name').notNull(),
    accountNumber: text('account_number').notNull(),
    branch: text('branch'),
    swift: text('swift'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.currency] })],
);

/** An account's reference code, made on first use and never changed; unique within its merchant. */
export const depositReferences = pgTable(
  'deposit_references',
  {
    accountId: uuid('account_id')
      .primaryKey()
      .references(() => accounts.id),
    merchantId: merchantRef(),
    reference: text('reference').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('deposit_references_code_uq').on(t.merchantId, t.reference),
    // the console's search: the start of a reference, the account read off the index alone
    index('deposit_references_prefix').on(t.merchantId, t.reference.op('text_pattern_ops'), t.accountId),
  ],
);

/** A receipt image a member uploaded: stored under DATA_DIR by a name the server made. */
export const depositReceipts = pgTable(
  'deposit_receipts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    memberId: uuid('member_id'),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    /** the file's name below DATA_DIR/receipts, made by the server */
    fileName: text('file_name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('deposit_receipts_account').on(t.accountId)],
);

/**
 * A top-up into a wallet. A notice is PENDING until the operator credits or rejects it; a statement
 * line that named the account's reference is CREDITED when it is made (or credits the notice it
 * answers). `ledger_transaction_id` is the ADMIN_RECHARGE_IN that credited it.
 */
export const deposits = pgTable(
  'deposits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    kind: text('kind').notNull().default('BANK'),
    source: text('source').notNull(),
    currency: text('currency').notNull(),
    /** minor units of `currency`; for a USDT deposit, millionths of a USDT (6 decimals, exactly as the gateway sent it) */
    amount: minorUnits('amount').notNull(),
    creditedAmount: minorUnits('credited_amount'),
    payerName: text('payer_name').notNull(),
    transferredAt: ts('transferred_at').notNull(),
    status: text('status').notNull().default('PENDING'),
    reason: text('reason').notNull().default(''),
    receiptId: uuid('receipt_id').references(() => depositReceipts.id),
    /** who filed the notice; null for a statement's line */
    memberId: uuid('member_id'),
    /** the bank's id of the statement line that credited it */
    bankTxnId: text('bank_txn_id'),
    /** a USDT deposit's chain facts (later): its transaction, confirmations so far and needed */
    chainTxId: text('chain_tx_id'),
    confirmations: integer('confirmations'),
    confirmationsRequired: integer('confirmations_required'),
    /** a USDT deposit: when the gateway last told of it (an event, or an answer to the reconciliation) */
    chainSeenAt: ts('chain_seen_at'),
    /** a USDT deposit: the merchant's rate (millionths of a USD per USDT) and fee (basis points) it was decided at */
    usdtRateMicros: bigint('usdt_rate_micros', { mode: 'bigint' }),
    usdtFeeBps: integer('usdt_fee_bps'),
    ledgerTransactionId: uuid('ledger_transaction_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    decidedAt: ts('decided_at'),
    /** the credit's e-mail went out: a credited row without it is the e-mail still to send (the row is its outbox) */
    mailedAt: ts('mailed_at'),
    /** a sender took the e-mail at this time: a lease, which another sender may take over once it is a few minutes old */
    mailClaimedAt: ts('mail_claimed_at'),
  },
  (t) => [
    index('deposits_account_created').on(t.accountId, t.createdAt.desc(), t.id.desc()),
    index('deposits_pending').on(t.merchantId, t.accountId, t.currency, t.amount).where(sql`${t.status} = 'PENDING'`),
    uniqueIndex('deposits_receipt_uq').on(t.receiptId),
    index('deposits_usdt_pending').on(t.chainSeenAt).where(sql`${t.kind} = 'USDT' and ${t.status} = 'PENDING'`),
    index('deposits_unmailed').on(t.decidedAt).where(sql`${t.status} = 'CREDITED' and ${t.mailedAt} is null`),
    uniqueIndex('deposits_bank_txn_uq').on(t.merchantId, t.bankTxnId),
    uniqueIndex('deposits_chain_tx_uq').on(t.merchantId, t.chainTxId),
    check('deposits_amount', sql`${t.amount} > 0`),
    check('deposits_status', sql`${t.status} in ('PENDING', 'CREDITED', 'REJECTED')`),
    check('deposits_kind', sql`${t.kind} in ('BANK', 'USDT')`),
  ],
);

/**
 * Every bank statement line imported, once per merchant and bank id: a line seen again is already
 * imported and credits nothing. MATCHED lines credited a deposit; UNMATCHED ones wait for a person.
 */
export const statementLines = pgTable(
  'deposit_statement_lines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    bankTxnId: text('bank_txn_id').notNull(),
    bookedOn: text('booked_on').notNull(),
    currency: text('currency').notNull(),
    amount: minorUnits('amount').notNull(),
    payer: text('payer').notNull(),
    memo: text('memo').notNull(),
    status: text('status').notNull(),
    depositId: uuid('deposit_id').references(() => deposits.id),
    importedAt: createdAt(),
    /** an unmatched line an operator credited to an account (deposit:credit-line): who said so, and when */
    creditedBy: text('credited_by'),
    creditedAt: ts('credited_at'),
  },
  (t) => [
    uniqueIndex('deposit_statement_lines_bank_uq').on(t.merchantId, t.bankTxnId),
    index('deposit_statement_lines_unmatched').on(t.merchantId).where(sql`${t.status} = 'UNMATCHED'`),
    check('deposit_statement_lines_status', sql`${t.status} in ('MATCHED', 'UNMATCHED')`),
  ],
);
