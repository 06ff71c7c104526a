/** Teams: invitations, what each member's budget has used by month, and the activity log. */
import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accountRef, members } from './accounts.ts';
import { ts } from './columns.ts';
import { merchantRef } from './merchants.ts';

/**
 * An invitation to join an account's team, sent by e-mail or SMS: only the SHA-256 of its token is
 * kept; single use, for 72 hours, revocable. One pending invitation per address and account (an
 * expired one is revoked when a new one is sent).
 */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    accountId: accountRef(),
    tokenHash: text('token_hash').notNull(),
    /** EMAIL or SMS */
    channel: text('channel').notNull(),
    /** where it went, as one text: the e-mail (lower case), or `+prefix phone` */
    address: text('address').notNull(),
    email: text('email'),
    phonePrefix: text('phone_prefix'),
    phone: text('phone'),
    role: text('role').notNull(),
    monthlyBudget: bigint('monthly_budget', { mode: 'bigint' }),
    invitedBy: uuid('invited_by')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    acceptedAt: ts('accepted_at'),
    acceptedMemberId: uuid('accepted_member_id'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [
    uniqueIndex('invitations_token_uq').on(t.tokenHash),
    uniqueIndex('invitations_pending_uq')
      .on(t.accountId, t.address)
      .where(sql`accepted_at is null and revoked_at is null`),
    index('invitations_account_idx').on(t.accountId, t.createdAt.desc()),
  ],
);

/**
 * What a member's cards took from the wallet in a China-time month (opening costs + top-ups −
 * withdrawals, minor units of the budget's currency): written in the same transaction as the money
 * moves, so a budget can be checked and used in one statement.
 */
export const budgetUsage = pgTable(
  'budget_usage',
  {
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    /** YYYY-MM, China time */
    month: text('month').notNull(),
    used: bigint('used', { mode: 'bigint' }).notNull().default(sql`0`),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.month] })],
);

/**
 * The activity log: every change of money, a card, a member, a key or security, with the member who
 * made it (their label as it was then), the address and the device.
 */
export const activityLog = pgTable(
  'activity_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    accountId: accountRef(),
    /** null: no member did it (the issuer, an operator, the system) */
    memberId: uuid('member_id'),
    memberLabel: text('member_label').notNull(),
    /** ACTIVITY_KINDS of the contract */
    kind: text('kind').notNull(),
    /** what was done, a code: CARD_FREEZE, CARD_RECHARGE, MEMBER_INVITE … */
    action: text('action').notNull(),
    summary: text('summary').notNull(),
    cardId: uuid('card_id'),
    amount: bigint('amount', { mode: 'bigint' }),
    currency: text('currency'),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    at: ts('at').notNull(),
  },
  (t) => [
    index('activity_account_at').on(t.accountId, t.at.desc(), t.id.desc()),
    index('activity_card_at').on(t.cardId, t.at.desc()).where(sql`card_id is not null`),
  ],
);
