/**
 * USDT (TRC20) top-ups: what a merchant offers (rate and fee), each account's deposit address made
 * by the crypto gateway, and every gateway event id received, so a replayed event changes nothing.
 * The deposits themselves are rows of `deposits` of kind USDT (schema/funding.ts).
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { createdAt, ts } from './columns.ts';
import { merchantRef } from './merchants.ts';

/** A merchant that offers USDT: the rate (millionths of a USD per USDT) and the fee (basis points, at most 10 %). */
export const usdtSettings = pgTable(
  'usdt_settings',
  {
    merchantId: merchantRef().primaryKey(),
    enabled: boolean('enabled').notNull().default(true),
    rateMicros: bigint('rate_micros', { mode: 'bigint' }).notNull(),
    feeBps: integer('fee_bps').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [check('usdt_settings_rate', sql`${t.rateMicros} > 0`), check('usdt_settings_fee', sql`${t.feeBps} between 0 and 1000`)],
);

/** An account's deposit address, asked of the gateway once and kept; an address belongs to one account. */
export const usdtAddresses = pgTable(
  'usdt_addresses',
  {
    accountId: uuid('account_id')
      .primaryKey()
      .references(() => accounts.id),
    merchantId: merchantRef(),
    address: text('address').notNull(),
    createdAt: createdAt(),
    /** when the reconciliation last listed the address's deposits at the gateway (null: never) */
    checkedAt: ts('checked_at'),
  },
  (t) => [uniqueIndex('usdt_addresses_address_uq').on(t.address), index('usdt_addresses_checked').on(t.checkedAt.asc().nullsFirst())],
);

/** Every event id the crypto gateway sent, recorded in the transaction that acted on it. */
export const cryptoGatewayEvents = pgTable('crypto_gateway_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  /** processed, or ignored (an address that is no account's) */
  outcome: text('outcome').notNull(),
  receivedAt: createdAt(),
});
