/**
 * Money moved by the merchant's console under four eyes: each request (a recharge, a deduction, an
 * adjustment, a statement line credited by hand) with who proposed it and who approved or rejected it,
 * and the merchant's threshold above which a request waits for a second operator.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { createdAt, minorUnits, ts } from './columns.ts';
import { merchantRef, merchants } from './merchants.ts';
import { operators } from './operators.ts';

export const moneyRequests = pgTable(
  'money_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    kind: text('kind').notNull(),
    status: text('status').notNull(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    currency: text('currency').notNull(),
    amount: minorUnits('amount').notNull(),
    reason: text('reason').notNull(),
    /** the statement line a LINE_CREDIT credits */
    bankTxnId: text('bank_txn_id'),
    /** the proposer's Idempotency-Key: the same key and body answer the first request */
    idempotencyKey: text('idempotency_key').notNull(),
    needsApproval: boolean('needs_approval').notNull(),
    proposedBy: uuid('proposed_by')
      .notNull()
      .references(() => operators.id),
    approvedBy: uuid('approved_by').references(() => operators.id),
    rejectedBy: uuid('rejected_by').references(() => operators.id),
    rejectionReason: text('rejection_reason'),
    ledgerTransactionId: uuid('ledger_transaction_id'),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    decidedAt: ts('decided_at'),
  },
  (t) => [
    uniqueIndex('money_requests_key_uq').on(t.merchantId, t.proposedBy, t.idempotencyKey),
    index('money_requests_merchant_created').on(t.merchantId, t.createdAt.desc()),
    // one credit by hand of a statement line waits at a time
    uniqueIndex('money_requests_line_pending_uq').on(t.merchantId, t.bankTxnId).where(sql`${t.status} = 'PENDING_APPROVAL' and ${t.bankTxnId} is not null`),
    check('money_requests_kind', sql`${t.kind} in ('RECHARGE', 'DEDUCT', 'ADJUST', 'LINE_CREDIT')`),
    check('money_requests_status', sql`${t.status} in ('PENDING_APPROVAL', 'APPLIED', 'REJECTED')`),
    check('money_requests_amount', sql`${t.amount} > 0`),
  ],
);

/** The merchant's four-eyes threshold (merchant:set --approval-threshold), the same figure in each currency; none set: 1,000.00. */
export const approvalThresholds = pgTable('approval_thresholds', {
  merchantId: uuid('merchant_id')
    .primaryKey()
    .references(() => merchants.id, { onDelete: 'cascade' }),
  amount: minorUnits('amount').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
