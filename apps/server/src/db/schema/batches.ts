/** Cards opened in batches and exports of card lists. */
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts, members, sessions } from './accounts.ts';
import { cardProducts } from './cards.ts';
import { minorUnits, ts } from './columns.ts';
import { merchantRef } from './merchants.ts';

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
    /** the member who started it (its cards are theirs to hold); a MEMBER sees only the batches they started */
    startedBy: uuid('started_by').references(() => members.id),
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
    index('card_batches_started_by').on(t.startedBy, t.createdAt),
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
    /** the cards chosen: the list's filters or the ids ticked; `held_by`: of those, only the ones that member holds (a MEMBER's export) */
    // filters as GET /card's query writes them (status a comma list)
    selection: jsonb('selection')
      .$type<{ filters: { status?: string; product_id?: string; keyword?: string; tag?: string; holder_member_id?: string }; ids?: string[]; held_by?: string }>()
      .notNull(),
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
