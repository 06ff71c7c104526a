/** A customer's wallet status. */
import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { ts } from './columns.ts';
import { merchants } from './merchants.ts';

/** A customer's wallet status; no row means BALANCE_STATUS_AVAILABLE. Nothing leaves a frozen wallet. */
export const wallets = pgTable('wallets', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id),
  merchantId: uuid('merchant_id')
    .notNull()
    .references(() => merchants.id),
  status: text('status').notNull().default('BALANCE_STATUS_AVAILABLE'),
  /** why it was frozen, shown to the customer */
  statusReason: text('status_reason').notNull().default(''),
  statusChangedAt: ts('status_changed_at'),
});
