/** Card products, the cards themselves, their verification, reveals and reveal grants. */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, smallint, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts, members, sessions } from './accounts.ts';
import { createdAt, minorUnits, ts } from './columns.ts';
import { merchantRef } from './merchants.ts';

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
export const cardVerifications = pgTable(
  'card_verifications',
  {
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
  },
  // the console's search: the start of the verified real name, the account read off the index alone
  (t) => [index('card_verifications_name_prefix').on(t.merchantId, t.realName.op('text_pattern_ops'), t.accountId)],
);

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
    /** the member who holds it: who opened it, until an admin gives it to another (a MEMBER sees only theirs) */
    holderMemberId: uuid('holder_member_id')
      .notNull()
      .references(() => members.id),
    nickname: text('nickname').notNull(),
    /** the account's labels on the card (contract cardTagRules: at most 10, each 1–20 characters, no repeats) */
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    brand: text('brand').notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    last4: text('last4'),
    /**
     * The first 8 digits of the number, kept in clear beside last4 so that a BIN search needs no
     * decryption: the product's BIN at opening, the number's own once issued.
     */
    bin: text('bin'),
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
    /** the first load's top-up fee, paid at opening */
    topupFee: minorUnits('topup_fee').notNull(),
    /**
     * The fee terms the card was opened under, copied from its product then (docs/decisions/0017): every
     * later top-up and every declined authorisation is charged by these, whatever the product says since.
     */
    topupFeeRate: text('topup_fee_rate').notNull(),
    topupFeeFixed: minorUnits('topup_fee_fixed').notNull(),
    /** null: no lower bound */
    topupFeeMin: minorUnits('topup_fee_min'),
    /** null: no upper bound */
    topupFeeMax: minorUnits('topup_fee_max'),
    declineFee: minorUnits('decline_fee').notNull(),
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
    // the console's cards across every customer, newest first
    index('cards_merchant_created').on(t.merchantId, t.createdAt.desc(), t.id.desc()),
    index('cards_account_product_status').on(t.accountId, t.productId, t.status),
    index('cards_holder').on(t.holderMemberId, t.createdAt.desc(), t.id.desc()),
    index('cards_tags').using('gin', t.tags),
    index('cards_batch').on(t.batchId).where(sql`batch_id is not null`),
    // a wallet posting that settled a card's hold names the card (its first load: 开卡充值)
    index('cards_load_hold').on(t.loadHoldId).where(sql`load_hold_id is not null`),
    index('cards_fee_hold').on(t.feeHoldId).where(sql`fee_hold_id is not null`),
    // the cards the reconciliation asks the issuer about, oldest first (modules/card-reconcile/reconcile.ts)
    index('cards_waiting')
      .on(t.updatedAt, t.id)
      .where(sql`status in ('CARD_STATUS_INIT', 'FREEZING', 'UNFREEZING', 'DELETING')`),
    check(
      'cards_status',
      sql`${t.status} in ('CARD_STATUS_INIT', 'NORMAL', 'FAIL', 'FREEZE', 'DELETE', 'FREEZING', 'DELETING', 'UNFREEZING')`,
    ),
    check('cards_frozen_by', sql`${t.frozenBy} is null or ${t.frozenBy} in ('CUSTOMER', 'OPERATOR', 'ISSUER')`),
    check('cards_fee_terms', sql`${t.topupFeeFixed} >= 0 and ${t.declineFee} >= 0`),
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
 * When a member last checked an access code for revealing card numbers, and in which session: reveals (and
 * exports with full numbers) are allowed for five minutes after, in that session only. A code the member
 * checks in another session takes the grant over; another member's code is theirs alone. The account's
 * rows are also what its reveals and exports lock in turn.
 */
export const cardRevealGrants = pgTable(
  'card_reveal_grants',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id),
    merchantId: merchantRef(),
    /** null on grants made before grants were bound to a session: those unlock nothing */
    sessionId: uuid('session_id').references(() => sessions.id),
    grantedAt: ts('granted_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.memberId] })],
);
