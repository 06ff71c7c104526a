import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const merchants = pgTable('merchants', {
  id: uuid('id').primaryKey().defaultRandom(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  color: text('color').notNull().default('MERCHANT_COLOR_BLUE'),
  website: text('website').notNull(),
  favicon: text('favicon').notNull().default(''),
  darkLogo: text('dark_logo').notNull().default(''),
  lightLogo: text('light_logo').notNull().default(''),
  icp: text('icp').notNull().default(''),
  version: text('version').notNull().default(''),
  supportEmail: text('support_email').notNull().default(''),
  /** where links in mail point, scheme://host[:port] (merchant:set --origin); '' for none */
  origin: text('origin').notNull().default(''),
  /** further branding fields, kept whole */
  extra: jsonb('extra').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The merchant a row belongs to; its rows go with it. */
const merchantRef = () =>
  uuid('merchant_id')
    .notNull()
    .references(() => merchants.id, { onDelete: 'cascade' });

export const merchantHosts = pgTable('merchant_hosts', {
  host: text('host').primaryKey(),
  merchantId: merchantRef(),
  createdAt: createdAt(),
});

export const agreements = pgTable(
  'agreements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    title: text('title').notNull(),
    text: text('text').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('agreements_merchant_idx').on(t.merchantId, t.publishedAt)],
);

/** Every SMS and e-mail the development providers "sent"; absent from answers in production. */
export const devOutbox = pgTable(
  'dev_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channel: text('channel').notNull(),
    to: text('to').notNull(),
    subject: text('subject').notNull().default(''),
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 6 })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [index('dev_outbox_created_idx').on(t.createdAt)],
);


const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 6 });

/** A merchant's customer manager; an invitation code ties a new account to one. */
export const customerManagers = pgTable(
  'customer_managers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    name: text('name').notNull(),
    /** stored upper case; codes are matched without regard to case */
    invitationCode: text('invitation_code').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('customer_managers_code_uq').on(t.merchantId, t.invitationCode)],
);

export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    phonePrefix: text('phone_prefix').notNull().default('86'),
    phone: text('phone').notNull(),
    /** stored lower case */
    email: text('email'),
    passwordHash: text('password_hash').notNull(),
    trxPasswordHash: text('trx_password_hash'),
    managerId: uuid('manager_id').references(() => customerManagers.id, { onDelete: 'set null' }),
    status: text('status').notNull().default('ACTIVE'),
    failedLogins: integer('failed_logins').notNull().default(0),
    failedWindowStart: ts('failed_window_start'),
    lockedUntil: ts('locked_until'),
    /** wrong trade passwords in the window that started at trx_failed_window_start; the fifth locks it until trx_locked_until */
    trxFailedTries: integer('trx_failed_tries').notNull().default(0),
    trxFailedWindowStart: ts('trx_failed_window_start'),
    trxLockedUntil: ts('trx_locked_until'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('accounts_phone_uq').on(t.merchantId, t.phonePrefix, t.phone),
    uniqueIndex('accounts_email_uq').on(t.merchantId, t.email),
  ],
);

/** The account a row belongs to; its rows go with it. */
const accountRef = () =>
  uuid('account_id')
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' });

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
  (t) => [uniqueIndex('sessions_token_uq').on(t.tokenHash), index('sessions_account_idx').on(t.accountId)],
);

/**
 * One-time codes: 6 digits, stored as a salted SHA-256, bound to (merchant, target, purpose).
 * target is "phone:86:13800000000" or "email:a@b.c".
 */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    target: text('target').notNull(),
    purpose: text('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    ip: text('ip').notNull().default(''),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    /** set when a newer code for the same target and purpose replaced this one */
    supersededAt: ts('superseded_at'),
  },
  (t) => [
    index('verification_codes_target_idx').on(t.merchantId, t.target, t.purpose, t.createdAt),
    index('verification_codes_target_day_idx').on(t.merchantId, t.target, t.createdAt),
    index('verification_codes_ip_idx').on(t.ip, t.createdAt),
  ],
);

/** "30天内此设备免验证": a device secret (hashed) that skips the second verification until it expires. */
export const trustedDevices = pgTable(
  'trusted_devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    accountId: accountRef(),
    secretHash: text('secret_hash').notNull(),
    label: text('label').notNull().default(''),
    /** the address it was last used from (trusted, or a sign-in it spared the check) */
    ip: text('ip').notNull().default(''),
    createdAt: ts('created_at').notNull(),
    lastUsedAt: ts('last_used_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [uniqueIndex('trusted_devices_secret_uq').on(t.secretHash), index('trusted_devices_account_idx').on(t.accountId)],
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
    at: ts('at').notNull(),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    /** LOGIN_METHODS of the contract */
    method: text('method').notNull(),
    /** LOGIN_RESULTS of the contract */
    result: text('result').notNull(),
  },
  (t) => [index('login_attempts_account_at').on(t.accountId, t.at.desc())],
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
    ticketHash: text('ticket_hash').notNull(),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [uniqueIndex('reset_tickets_hash_uq').on(t.ticketHash)],
);


/** A message to one account: notices, FREEZE, batch results. content is HTML, cleaned when shown. */
export const stationMessages = pgTable(
  'station_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    accountId: accountRef(),
    type: text('type').notNull().default('NOTICE'),
    title: text('title').notNull(),
    content: text('content').notNull(),
    status: text('status').notNull().default('success'),
    createdAt: ts('created_at').notNull(),
    readAt: ts('read_at'),
    /** a content that holds a secret for a while (a 3-D Secure code): from this instant on `expired_content` is shown, and stored in its place */
    contentExpiresAt: ts('content_expires_at'),
    expiredContent: text('expired_content'),
  },
  (t) => [index('station_messages_account_idx').on(t.accountId, t.createdAt), index('station_messages_unread_idx').on(t.accountId, t.readAt)],
);

/** A merchant's announcement: every account of the merchant sees it, each with its own read state. */
export const announcements = pgTable(
  'announcements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    status: text('status').notNull().default('success'),
    publishedAt: ts('published_at').notNull(),
  },
  (t) => [index('announcements_merchant_idx').on(t.merchantId, t.publishedAt)],
);

export const announcementReads = pgTable(
  'announcement_reads',
  {
    announcementId: uuid('announcement_id')
      .notNull()
      .references(() => announcements.id, { onDelete: 'cascade' }),
    accountId: accountRef(),
    readAt: ts('read_at').notNull(),
  },
  (t) => [uniqueIndex('announcement_reads_uq').on(t.accountId, t.announcementId)],
);

// ── Money: the double-entry ledger (product.md §3; README "Money") ──

const minorUnits = (name: string) => bigint(name, { mode: 'bigint' });

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

/**
 * A card product a merchant offers (shared/design/cards.md): its brand and BIN, currency, fees and
 * limits. Amounts in minor units; the top-up fee rate as the decimal text the fee helper reads.
 */
export const cardProducts = pgTable(
  'card_products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    name: text('name').notNull(),
    brand: text('brand').notNull(),
    bin: text('bin').notNull(),
    currency: text('currency').notNull(),
    openFee: minorUnits('open_fee').notNull(),
    topupFeeRate: text('topup_fee_rate').notNull(),
    topupFeeFixed: minorUnits('topup_fee_fixed').notNull(),
    /** null: no lower bound */
    topupFeeMin: minorUnits('topup_fee_min'),
    /** null: no upper bound */
    topupFeeMax: minorUnits('topup_fee_max'),
    minFirstLoad: minorUnits('min_first_load').notNull(),
    maxBalance: minorUnits('max_balance').notNull(),
    declineFee: minorUnits('decline_fee').notNull(),
    perAccountLimit: integer('per_account_limit').notNull(),
    maxPerBatch: integer('max_per_batch').notNull(),
    needsSecondary: boolean('needs_secondary').notNull().default(false),
    status: text('status').notNull().default('ON'),
    /** the order the portal lists them in */
    position: smallint('position').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('card_products_merchant_name').on(t.merchantId, t.name),
    check('card_products_amounts', sql`${t.openFee} >= 0 and ${t.topupFeeFixed} >= 0 and ${t.minFirstLoad} >= 0 and ${t.maxBalance} > 0 and ${t.declineFee} >= 0`),
    check('card_products_status', sql`${t.status} in ('ON', 'OFF')`),
  ],
);

/**
 * What a card holder has given before opening cards: the basic pair (real name, ID number, the number
 * sealed with the card data key, shown masked) and the secondary pair (Latin name, website).
 */
export const cardVerifications = pgTable('card_verifications', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id),
  merchantId: merchantRef(),
  realName: text('real_name'),
  idNumberSealed: text('id_number_sealed'),
  idNumberMasked: text('id_number_masked'),
  basicAt: ts('basic_at'),
  latinName: text('latin_name'),
  website: text('website'),
  secondaryAt: ts('secondary_at'),
});

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
 * A virtual card (shared/design/cards.md). The full number, CVV and expiry are sealed together with the
 * card data key (`sealed_key_id` names the key, so keys can rotate); only the last four digits and the
 * brand are kept in clear. Its money is the ledger's CARD account (owner_id = this id). While the issuer
 * has not answered an opening, the cost waits in two holds on the wallet: the opening fee and the first
 * load with its top-up fee.
 */
export const cards = pgTable(
  'cards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    productId: uuid('product_id')
      .notNull()
      .references(() => cardProducts.id),
    nickname: text('nickname').notNull(),
    brand: text('brand').notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    last4: text('last4'),
    /** `{pan, cvv, exp_month, exp_year}` sealed (lib/sealed.ts) */
    secretSealed: text('secret_sealed'),
    sealedKeyId: text('sealed_key_id'),
    /** CUSTOMER | OPERATOR | ISSUER while frozen or freezing */
    frozenBy: text('frozen_by'),
    statusReason: text('status_reason'),
    failureReason: text('failure_reason'),
    batchId: uuid('batch_id'),
    /** the Idempotency-Key of the opening request, per account: the same key opens one card */
    openKey: text('open_key').notNull(),
    /** a digest of the opening request (product, amount, nickname): the same key with another body is refused */
    openFingerprint: text('open_fingerprint').notNull(),
    firstLoad: minorUnits('first_load').notNull(),
    openFee: minorUnits('open_fee').notNull(),
    topupFee: minorUnits('topup_fee').notNull(),
    feeHoldId: uuid('fee_hold_id'),
    loadHoldId: uuid('load_hold_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    issuedAt: ts('issued_at'),
    closedAt: ts('closed_at'),
  },
  (t) => [
    uniqueIndex('cards_open_key_uq').on(t.accountId, t.openKey),
    index('cards_account_created').on(t.merchantId, t.accountId, t.createdAt.desc(), t.id.desc()),
    index('cards_account_product_status').on(t.accountId, t.productId, t.status),
    index('cards_batch').on(t.batchId).where(sql`batch_id is not null`),
    // the cards the reconciliation asks the issuer about, oldest first (modules/cards/reconcile.ts)
    index('cards_waiting')
      .on(t.updatedAt, t.id)
      .where(sql`status in ('CARD_STATUS_INIT', 'FREEZING', 'UNFREEZING', 'DELETING')`),
    check(
      'cards_status',
      sql`${t.status} in ('CARD_STATUS_INIT', 'NORMAL', 'FAIL', 'FREEZE', 'DELETE', 'FREEZING', 'DELETING', 'UNFREEZING')`,
    ),
    check('cards_frozen_by', sql`${t.frozenBy} is null or ${t.frozenBy} in ('CUSTOMER', 'OPERATOR', 'ISSUER')`),
  ],
);

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
    uniqueIndex('card_transactions_ledger_uq').on(t.ledgerTransactionId),
    uniqueIndex('card_transactions_authorization_uq').on(t.cardId, t.authorizationId).where(sql`${t.type} = 'CONSUME'`),
    index('card_transactions_authorization').on(t.authorizationId),
    // the hold-expiry job's search: the few authorisations still pending, oldest first
    index('card_transactions_pending').on(t.createdAt).where(sql`${t.status} = 'PENDING'`),
    check('card_transactions_amount', sql`${t.amount} > 0`),
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
  },
  (t) => [
    uniqueIndex('charges_owed_authorization_uq').on(t.kind, t.authorizationId),
    index('charges_owed_account').on(t.merchantId, t.accountId),
    check('charges_owed_amount', sql`${t.amount} > 0`),
    check('charges_owed_kind', sql`${t.kind} in ('DECLINED_FEE', 'SETTLEMENT_OVER')`),
  ],
);


/** Every time a card's full number was shown: who, which card, when, from where. */
export const cardReveals = pgTable(
  'card_reveals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id),
    ip: text('ip').notNull(),
    userAgent: text('user_agent').notNull(),
    revealedAt: ts('revealed_at').notNull(),
  },
  (t) => [index('card_reveals_account_at').on(t.accountId, t.revealedAt)],
);

/**
 * When an account last checked an access code for revealing card numbers, and in which session: reveals (and
 * exports with full numbers) are allowed for five minutes after, in that session only. A code checked in
 * another session takes the grant over. The row is also what one account's reveals and exports lock in turn.
 */
export const cardRevealGrants = pgTable('card_reveal_grants', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id),
  merchantId: merchantRef(),
  /** null on grants made before grants were bound to a session: those unlock nothing */
  sessionId: uuid('session_id').references(() => sessions.id),
  grantedAt: ts('granted_at').notNull(),
});

/**
 * A batch of cards opened at once (POST /batch-create-card). Its cards are made when it is accepted
 * (cards.batch_id), each with its share of the cost held on the wallet; a job per card asks the issuer.
 * The counts move as the issuer answers; at most one batch of an account runs at a time.
 */
export const cardBatches = pgTable(
  'card_batches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    productId: uuid('product_id')
      .notNull()
      .references(() => cardProducts.id),
    /** RUNNING | SUCCESS | FAIL (card-batches.ts BATCH_STATUSES) */
    status: text('status').notNull(),
    nicknamePrefix: text('nickname_prefix').notNull(),
    quantity: integer('quantity').notNull(),
    /** each card's first load */
    amount: minorUnits('amount').notNull(),
    /** the whole cost held when the batch was accepted */
    totalCost: minorUnits('total_cost').notNull(),
    successCount: integer('success_count').notNull().default(0),
    failCount: integer('fail_count').notNull().default(0),
    /** the Idempotency-Key of the request, per account, and a digest of its body */
    openKey: text('open_key').notNull(),
    openFingerprint: text('open_fingerprint').notNull(),
    /** the station message listing the failures, once a batch with failures ended */
    messageId: uuid('message_id'),
    createdAt: ts('created_at').notNull(),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    uniqueIndex('card_batches_open_key_uq').on(t.accountId, t.openKey),
    uniqueIndex('card_batches_one_running_uq')
      .on(t.accountId)
      .where(sql`status = 'RUNNING'`),
    index('card_batches_account_created').on(t.accountId, t.createdAt),
    check('card_batches_status', sql`${t.status} in ('RUNNING', 'SUCCESS', 'FAIL')`),
    check('card_batches_counts', sql`${t.successCount} >= 0 and ${t.failCount} >= 0 and ${t.successCount} + ${t.failCount} <= ${t.quantity}`),
  ],
);

/**
 * A bulk export of cards to an .xlsx file under DATA_DIR, written by a job. The row stays after its file
 * is deleted (EXPIRED): with include_sensitive it is the audit record of who took full numbers, from where.
 */
export const cardExports = pgTable(
  'card_exports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    /** PENDING | RUNNING | DONE | FAILED | EXPIRED (card-batches.ts EXPORT_STATUSES) */
    status: text('status').notNull(),
    /** `{filters, ids?}` as asked */
    selection: jsonb('selection').$type<{ filters: { status?: string; product_id?: string; keyword?: string }; ids?: string[] }>().notNull(),
    columns: jsonb('columns').$type<string[]>().notNull(),
    includeSensitive: boolean('include_sensitive').notNull(),
    /**
     * The session that asked for it: a file with full numbers is served to that session only, as the
     * access code that let it be made opened them to that session only. Null on exports made before this
     * was kept: their full numbers are served to no session.
     */
    sessionId: uuid('session_id').references(() => sessions.id),
    done: integer('done').notNull().default(0),
    total: integer('total').notNull().default(0),
    fileName: text('file_name').notNull(),
    size: bigint('size', { mode: 'number' }),
    error: text('error'),
    ip: text('ip').notNull(),
    userAgent: text('user_agent').notNull(),
    createdAt: ts('created_at').notNull(),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
    expiresAt: ts('expires_at'),
  },
  (t) => [
    index('card_exports_account_created').on(t.accountId, t.createdAt),
    index('card_exports_expiring').on(t.expiresAt).where(sql`status = 'DONE'`),
    check('card_exports_status', sql`${t.status} in ('PENDING', 'RUNNING', 'DONE', 'FAILED', 'EXPIRED')`),
  ],
);
