/** Customer accounts and signing in: sessions, trusted devices, attempts, unknown sign-ins and reset tickets. */
import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, ts } from './columns.ts';
import { customerManagers, merchantRef } from './merchants.ts';

/**
 * A customer account: the company that owns the wallet, the verification, the cards and the messages.
 * The people who sign in to it are its members (`members`).
 */
export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    /** the company's name as the team set it; empty until then (answers show one made from the owner's phone) */
    name: text('name').notNull().default(''),
    managerId: uuid('manager_id').references(() => customerManagers.id, { onDelete: 'set null' }),
    status: text('status').notNull().default('ACTIVE'),
    createdAt: createdAt(),
  },
  // the console's customer list, newest first
  (t) => [index('accounts_merchant_created').on(t.merchantId, t.createdAt.desc(), t.id.desc())],
);

/** The account a row belongs to; its rows go with it. */
export const accountRef = () =>
  uuid('account_id')
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' });

/**
 * A person who signs in to an account: their phone and e-mail, password, trade password and the
 * counts that lock them, their role and monthly budget. Sign-up makes the account and its owner, whose
 * member id is the account's id. A removed member keeps their row (the log names them) with status
 * REMOVED, and their phone and e-mail are free again. A person is a member of one account per merchant.
 */
export const members = pgTable(
  'members',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    accountId: accountRef(),
    /** ROLES of the contract */
    role: text('role').notNull(),
    /** ACTIVE, SUSPENDED or REMOVED */
    status: text('status').notNull().default('ACTIVE'),
    phonePrefix: text('phone_prefix').notNull().default('86'),
    phone: text('phone').notNull(),
    /** stored lower case */
    email: text('email'),
    passwordHash: text('password_hash').notNull(),
    trxPasswordHash: text('trx_password_hash'),
    failedLogins: integer('failed_logins').notNull().default(0),
    failedWindowStart: ts('failed_window_start'),
    lockedUntil: ts('locked_until'),
    /** wrong trade passwords in the window that started at trx_failed_window_start; the fifth locks it until trx_locked_until */
    trxFailedTries: integer('trx_failed_tries').notNull().default(0),
    trxFailedWindowStart: ts('trx_failed_window_start'),
    trxLockedUntil: ts('trx_locked_until'),
    /** minor units of the budget's currency a month; null: none */
    monthlyBudget: bigint('monthly_budget', { mode: 'bigint' }),
    invitedBy: uuid('invited_by'),
    createdAt: createdAt(),
    removedAt: ts('removed_at'),
  },
  (t) => [
    uniqueIndex('members_phone_uq').on(t.merchantId, t.phonePrefix, t.phone).where(sql`status <> 'REMOVED'`),
    uniqueIndex('members_email_uq').on(t.merchantId, t.email).where(sql`status <> 'REMOVED'`),
    uniqueIndex('members_owner_uq').on(t.accountId).where(sql`role = 'OWNER'`),
    index('members_account_idx').on(t.accountId),
    // the console's search: the start of a phone number or an e-mail, the account read off the index alone
    index('members_phone_prefix').on(t.merchantId, t.phone.op('text_pattern_ops'), t.accountId).where(sql`status <> 'REMOVED'`),
    index('members_email_prefix').on(t.merchantId, t.email.op('text_pattern_ops'), t.accountId).where(sql`status <> 'REMOVED'`),
  ],
);

/** The member a row belongs to; its rows go with it. */
export const memberRef = () =>
  uuid('member_id')
    .notNull()
    .references(() => members.id, { onDelete: 'cascade' });

/**
 * A sign-in. Only the SHA-256 of the token is kept. stage: VERIFY (second verification pending),
 * BIND_EMAIL (account has no e-mail yet), FULL.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    accountId: accountRef(),
    memberId: memberRef(),
    tokenHash: text('token_hash').notNull(),
    stage: text('stage').notNull(),
    /** for VERIFY: where the access code goes, SEND_TYPE_PHONE or SEND_TYPE_EMAIL */
    verifyChannel: text('verify_channel'),
    userAgent: text('user_agent').notNull().default(''),
    ip: text('ip').notNull().default(''),
    createdAt: ts('created_at').notNull(),
    lastSeenAt: ts('last_seen_at').notNull(),
    revokedAt: ts('revoked_at'),
    revokeReason: text('revoke_reason'),
  },
  (t) => [uniqueIndex('sessions_token_uq').on(t.tokenHash), index('sessions_account_idx').on(t.accountId), index('sessions_member_idx').on(t.memberId)],
);

/** "30天内此设备免验证": a device secret (hashed) that skips the second verification until it expires. */
export const trustedDevices = pgTable(
  'trusted_devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    accountId: accountRef(),
    memberId: memberRef(),
    secretHash: text('secret_hash').notNull(),
    label: text('label').notNull().default(''),
    /** the address it was last used from (trusted, or a sign-in it spared the check) */
    ip: text('ip').notNull().default(''),
    createdAt: ts('created_at').notNull(),
    lastUsedAt: ts('last_used_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [uniqueIndex('trusted_devices_secret_uq').on(t.secretHash), index('trusted_devices_member_idx').on(t.memberId)],
);

/**
 * Sign-in attempts of an account (password, second verification), for its sign-in history; an
 * unknown account's attempts are not kept. Each account keeps its newest few hundred.
 */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    accountId: accountRef(),
    memberId: memberRef(),
    at: ts('at').notNull(),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    /** LOGIN_METHODS of the contract */
    method: text('method').notNull(),
    /** LOGIN_RESULTS of the contract */
    result: text('result').notNull(),
  },
  (t) => [index('login_attempts_member_at').on(t.memberId, t.at.desc())],
);

/**
 * Wrong passwords typed for a phone or e-mail that is no account of the merchant, counted and locked as
 * an account's are (accounts.failed_logins), so the lock does not tell which ones are accounts. The
 * identifier is kept only as a keyed hash.
 */
export const unknownSignIns = pgTable(
  'unknown_sign_ins',
  {
    merchantId: merchantRef(),
    identifierHash: text('identifier_hash').notNull(),
    failures: integer('failures').notNull().default(0),
    windowStart: ts('window_start'),
    lockedUntil: ts('locked_until'),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.identifierHash] })],
);

/** Single-use permission to set a new password, issued by a successful phone code check. */
export const resetTickets = pgTable(
  'reset_tickets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    accountId: accountRef(),
    memberId: memberRef(),
    ticketHash: text('ticket_hash').notNull(),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [uniqueIndex('reset_tickets_hash_uq').on(t.ticketHash)],
);
