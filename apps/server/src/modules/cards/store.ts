import { and, asc, count, desc, eq, gte, ilike, notInArray, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { cardExports, cardProducts, cardRevealGrants, cardReveals, cards, cardTransactions, cardVerifications, ledgerAccounts, ledgerHolds } from '../../db/schema.ts';

export type ProductRow = typeof cardProducts.$inferSelect;
export type NewProduct = Omit<typeof cardProducts.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;
export type VerificationRow = typeof cardVerifications.$inferSelect;

export async function listProducts(tx: Tx, merchantId: string) {
  return tx.select().from(cardProducts).where(eq(cardProducts.merchantId, merchantId)).orderBy(asc(cardProducts.position), asc(cardProducts.createdAt));
}

export async function findProduct(tx: Tx, merchantId: string, which: { id: string } | { name: string }) {
  const match = 'id' in which ? eq(cardProducts.id, which.id) : eq(cardProducts.name, which.name);
  const [row] = await tx.select().from(cardProducts).where(and(eq(cardProducts.merchantId, merchantId), match)).limit(1);
  return row;
}

export async function insertProduct(tx: Tx, values: NewProduct) {
  const [row] = await tx.insert(cardProducts).values(values).returning();
  if (!row) throw new Error('product insert returned nothing');
  return row;
}

/** Changes a product of the merchant, locking its row until commit; undefined when there is none. */
export async function updateProduct(tx: Tx, merchantId: string, id: string, changes: Partial<NewProduct>, at: Date) {
  const [row] = await tx
    .update(cardProducts)
    .set({ ...changes, updatedAt: at })
    .where(and(eq(cardProducts.merchantId, merchantId), eq(cardProducts.id, id)))
    .returning();
  return row;
}

export async function findVerification(tx: Tx, merchantId: string, accountId: string) {
  const [row] = await tx
    .select()
    .from(cardVerifications)
    .where(and(eq(cardVerifications.merchantId, merchantId), eq(cardVerifications.accountId, accountId)))
    .limit(1);
  return row;
}

/** Writes the pairs given (a pair not given keeps what it had). */
export async function saveVerification(tx: Tx, row: Pick<VerificationRow, 'accountId' | 'merchantId'> & Partial<VerificationRow>) {
  const { accountId: _accountId, merchantId: _merchantId, ...changes } = row;
  const [saved] = await tx
    .insert(cardVerifications)
    .values(row)
    .onConflictDoUpdate({ target: cardVerifications.accountId, set: changes })
    .returning();
  if (!saved) throw new Error('verification upsert returned nothing');
  return saved;
}

/** Locks the account's verification row: opening cards of one account is done one at a time (the quota). */
export async function lockVerification(tx: Tx, merchantId: string, accountId: string) {
  const [row] = await tx
    .select()
    .from(cardVerifications)
    .where(and(eq(cardVerifications.merchantId, merchantId), eq(cardVerifications.accountId, accountId)))
    .for('update');
  return row;
}

// ── cards ──

export type CardRow = typeof cards.$inferSelect;
export type NewCard = typeof cards.$inferInsert;
export type CardChanges = Partial<Omit<CardRow, 'id' | 'merchantId' | 'accountId' | 'createdAt'>>;

/** Statuses whose cards count against a product's per-account limit (failed and cancelled ones do not). */
const UNCOUNTED = ['FAIL', 'DELETE'];

export async function insertCard(tx: Tx, values: NewCard) {
  const [row] = await tx.insert(cards).values(values).returning();
  if (!row) throw new Error('card insert returned nothing');
  return row;
}

export async function findCardByOpenKey(tx: Tx, merchantId: string, accountId: string, key: string) {
  const [row] = await tx
    .select()
    .from(cards)
    .where(and(eq(cards.merchantId, merchantId), eq(cards.accountId, accountId), eq(cards.openKey, key)))
    .limit(1);
  return row;
}

export async function countOpenCards(tx: Tx, accountId: string, productId: string) {
  const [row] = await tx
    .select({ n: count() })
    .from(cards)
    .where(and(eq(cards.accountId, accountId), eq(cards.productId, productId), notInArray(cards.status, UNCOUNTED)));
  return row?.n ?? 0;
}

/** How many cards the account holds of each product, those counting against the limit. */
export async function openCardsByProduct(tx: Tx, merchantId: string, accountId: string) {
  const rows = await tx
    .select({ productId: cards.productId, n: count() })
    .from(cards)
    .where(and(eq(cards.merchantId, merchantId), eq(cards.accountId, accountId), notInArray(cards.status, UNCOUNTED)))
    .groupBy(cards.productId);
  return new Map(rows.map((row) => [row.productId, row.n]));
}

/** The account's card (undefined for another's, or none). */
export async function findOwnCard(tx: Tx, merchantId: string, accountId: string, id: string, { lock = false } = {}) {
  const query = tx
    .select()
    .from(cards)
    .where(and(eq(cards.id, id), eq(cards.merchantId, merchantId), eq(cards.accountId, accountId)));
  const [row] = await (lock ? query.for('update') : query);
  return row;
}

/** Any card by its id, locked: an issuer's event names only the card. */
export async function lockCardById(tx: Tx, id: string) {
  const [row] = await tx.select().from(cards).where(eq(cards.id, id)).for('update');
  return row;
}

/** A card by id, unlocked. */
export async function findCard(tx: Tx, id: string) {
  const [row] = await tx.select().from(cards).where(eq(cards.id, id)).limit(1);
  return row;
}

export async function updateCard(tx: Tx, id: string, changes: CardChanges) {
  const [row] = await tx.update(cards).set(changes).where(eq(cards.id, id)).returning();
  if (!row) throw new Error(`card ${id} vanished`);
  return row;
}

export interface CardFilter {
  status?: string | undefined;
  productId?: string | undefined;
  keyword?: string | undefined;
}

function cardWhere(merchantId: string, accountId: string | undefined, filter: CardFilter) {
  const keyword = filter.keyword?.trim();
  const like = keyword ? `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  return and(
    eq(cards.merchantId, merchantId),
    accountId ? eq(cards.accountId, accountId) : undefined,
    filter.status ? eq(cards.status, filter.status) : undefined,
    filter.productId ? eq(cards.productId, filter.productId) : undefined,
    like ? (keyword && /^\d{4}$/.test(keyword) ? or(eq(cards.last4, keyword), ilike(cards.nickname, like)) : ilike(cards.nickname, like)) : undefined,
  );
}

/**
 * A page of cards with their product's name, newest first, and how many match. The page's ids are
 * found first, in the order of the index `cards_account_created` (created_at and id DESC NULLS LAST,
 * as drizzle-kit writes `.desc()`: a plain DESC is NULLS FIRST and could not use it, so every page
 * sorted all the account's cards); only then are the page's rows read and joined, so a far page skips
 * index entries rather than whole rows.
 */
export async function pageCards(tx: Tx, merchantId: string, accountId: string | undefined, filter: CardFilter, limit: number, offset: number) {
  const where = cardWhere(merchantId, accountId, filter);
  const page = tx
    .select({ id: cards.id })
    .from(cards)
    .where(where)
    .orderBy(sql`${cards.createdAt} desc nulls last`, sql`${cards.id} desc nulls last`)
    .limit(limit)
    .offset(offset)
    .as('page');
  // one after another: `tx` may be a transaction, whose one connection takes one query at a time
  const rows = await tx
    .select({ card: cards, productName: cardProducts.name })
    .from(page)
    .innerJoin(cards, eq(cards.id, page.id))
    .innerJoin(cardProducts, eq(cardProducts.id, cards.productId))
    .orderBy(desc(cards.createdAt), desc(cards.id));
  const [total] = await tx.select({ n: count() }).from(cards).where(where);
  return { rows, total: total?.n ?? 0 };
}

export async function productNameOf(tx: Tx, productId: string) {
  const [row] = await tx.select({ name: cardProducts.name }).from(cardProducts).where(eq(cardProducts.id, productId)).limit(1);
  return row?.name ?? '';
}

/** How many cards the account has in each status. */
export async function countCardsByStatus(tx: Tx, merchantId: string, accountId: string) {
  return tx
    .select({ status: cards.status, n: count() })
    .from(cards)
    .where(and(eq(cards.merchantId, merchantId), eq(cards.accountId, accountId)))
    .groupBy(cards.status);
}

/** Cards of a merchant (optionally one account's) for the operator, newest first. */
export async function findCardsForOperator(tx: Tx, merchantId: string, which: { id?: string; last4?: string; accountId?: string }) {
  return tx
    .select({ card: cards, productName: cardProducts.name })
    .from(cards)
    .innerJoin(cardProducts, eq(cardProducts.id, cards.productId))
    .where(
      and(
        eq(cards.merchantId, merchantId),
        which.id ? eq(cards.id, which.id) : undefined,
        which.last4 ? eq(cards.last4, which.last4) : undefined,
        which.accountId ? eq(cards.accountId, which.accountId) : undefined,
      ),
    )
    .orderBy(desc(cards.createdAt), desc(cards.id))
    .limit(1000);
}

// ── card transactions ──

export type NewCardTransaction = typeof cardTransactions.$inferInsert;

export async function insertCardTransaction(tx: Tx, values: NewCardTransaction) {
  await tx.insert(cardTransactions).values(values).onConflictDoNothing({ target: cardTransactions.ledgerTransactionId });
}

// ── reveals ──

export async function revealsSince(tx: Tx, accountId: string, since: Date) {
  return tx
    .select({ at: cardReveals.revealedAt })
    .from(cardReveals)
    .where(and(eq(cardReveals.accountId, accountId), gte(cardReveals.revealedAt, since)))
    .orderBy(asc(cardReveals.revealedAt));
}

export async function insertReveal(tx: Tx, values: typeof cardReveals.$inferInsert) {
  await tx.insert(cardReveals).values(values);
}

/** The account's exports with full numbers asked for since `since`, oldest first: they count as reveals. */
export async function sensitiveExportsSince(tx: Tx, accountId: string, since: Date) {
  return tx
    .select({ at: cardExports.createdAt })
    .from(cardExports)
    .where(and(eq(cardExports.accountId, accountId), eq(cardExports.includeSensitive, true), gte(cardExports.createdAt, since)))
    .orderBy(asc(cardExports.createdAt));
}

export async function saveRevealGrant(tx: Tx, grant: { merchantId: string; accountId: string; sessionId: string; at: Date }) {
  await tx
    .insert(cardRevealGrants)
    .values({ merchantId: grant.merchantId, accountId: grant.accountId, sessionId: grant.sessionId, grantedAt: grant.at })
    .onConflictDoUpdate({ target: cardRevealGrants.accountId, set: { sessionId: grant.sessionId, grantedAt: grant.at } });
}

export async function findRevealGrant(tx: Tx, merchantId: string, accountId: string) {
  const [row] = await tx
    .select()
    .from(cardRevealGrants)
    .where(and(eq(cardRevealGrants.merchantId, merchantId), eq(cardRevealGrants.accountId, accountId)))
    .limit(1);
  return row;
}

/** Serialises the reveals of one account, so that two at once cannot both pass the hourly limit. */
export async function lockRevealGrant(tx: Tx, accountId: string) {
  await tx.execute(sql`select 1 from card_reveal_grants where account_id = ${accountId} for update`);
}

/**
 * Cancelled cards still holding money: any available on them (it goes to the wallet the moment it
 * arrives), or held on authorisations older than `overdueBefore` (the expiry job releases those).
 */
export async function closedCardsHoldingMoney(tx: Tx, overdueBefore: Date) {
  const overdue = sql<string>`(select coalesce(sum(${ledgerHolds.amount}), 0) from ${ledgerHolds}
    where ${ledgerHolds.ledgerAccountId} = ${ledgerAccounts.id} and ${ledgerHolds.status} = 'ACTIVE' and ${ledgerHolds.createdAt} < ${overdueBefore.toISOString()}::timestamptz)`;
  const rows = await tx
    .select({ cardId: cards.id, merchantId: cards.merchantId, currency: ledgerAccounts.currency, balance: ledgerAccounts.balance, held: ledgerAccounts.held, overdue: sql<string>`${overdue}::text` })
    .from(cards)
    .innerJoin(ledgerAccounts, and(eq(ledgerAccounts.kind, 'CARD'), eq(ledgerAccounts.ownerId, cards.id), eq(ledgerAccounts.merchantId, cards.merchantId)))
    .where(and(eq(cards.status, 'DELETE'), sql`(${ledgerAccounts.balance} > ${ledgerAccounts.held} or ${overdue} > 0)`))
    .orderBy(cards.id);
  return rows.map((row) => ({ ...row, available: BigInt(row.balance) - BigInt(row.held), overdue: BigInt(row.overdue) }));
}
