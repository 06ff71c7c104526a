import { and, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { cardProducts, cards, cardTransactions, ledgerAccounts, ledgerHolds, members } from '../../db/schema.ts';
import type { CardScope } from './scope.ts';

export type CardRow = typeof cards.$inferSelect;
export type NewCard = typeof cards.$inferInsert;
export type CardChanges = Partial<Omit<CardRow, 'id' | 'merchantId' | 'accountId' | 'createdAt'>>;

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

const inScope = (scope: CardScope) => and(eq(cards.accountId, scope.accountId), scope.heldBy ? eq(cards.holderMemberId, scope.heldBy) : undefined);

/** The card, when it is in the scope (undefined for another account's, one the member does not hold, or none). */
export async function findOwnCard(tx: Tx, merchantId: string, scope: CardScope, id: string, { lock = false } = {}) {
  const query = tx
    .select()
    .from(cards)
    .where(and(eq(cards.id, id), eq(cards.merchantId, merchantId), inScope(scope)));
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

/** Gives every card `from` holds to `to` (cancelled ones too: the log keeps who held them last); answers the cards moved. */
export async function moveHolder(tx: Tx, accountId: string, from: string, to: string, now: Date) {
  return tx
    .update(cards)
    .set({ holderMemberId: to, updatedAt: now })
    .where(and(eq(cards.accountId, accountId), eq(cards.holderMemberId, from)))
    .returning();
}

export interface CardFilter {
  status?: string | undefined;
  productId?: string | undefined;
  keyword?: string | undefined;
  /** only the cards this member holds */
  holderMemberId?: string | undefined;
}

export function cardWhere(merchantId: string, accountId: string | undefined, filter: CardFilter) {
  const keyword = filter.keyword?.trim();
  const like = keyword ? `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  return and(
    eq(cards.merchantId, merchantId),
    accountId ? eq(cards.accountId, accountId) : undefined,
    filter.status ? eq(cards.status, filter.status) : undefined,
    filter.productId ? eq(cards.productId, filter.productId) : undefined,
    filter.holderMemberId ? eq(cards.holderMemberId, filter.holderMemberId) : undefined,
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

/** How many cards of the scope are in each status. */
export async function countCardsByStatus(tx: Tx, merchantId: string, scope: CardScope) {
  return tx
    .select({ status: cards.status, n: count() })
    .from(cards)
    .where(and(eq(cards.merchantId, merchantId), inScope(scope)))
    .groupBy(cards.status);
}

/** The phone and role of each of these members (the holders of a page of cards). */
export async function holdersOf(tx: Tx, memberIds: string[]) {
  if (memberIds.length === 0) return new Map<string, { phone: string; role: string }>();
  const rows = await tx.select({ id: members.id, phone: members.phone, role: members.role }).from(members).where(inArray(members.id, memberIds));
  return new Map(rows.map((row) => [row.id, { phone: row.phone, role: row.role }]));
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
