import type { CardListFilter, CardSort } from '@portal/contract/card-list';
import { parseCardSort } from '@portal/contract/card-list';
import { and, arrayContains, count, desc, eq, ilike, inArray, like, or, type SQL, sql } from 'drizzle-orm';
import { cardFigureTerms, type FigureMoment } from '../../db/card-figures.ts';
import { isUuid } from '../../lib/uuid.ts';
import { type Db, readsOn, type Tx } from '../../db/engine.ts';
import { cardFigures, cardProducts, cards, cardTransactions, ledgerAccounts, ledgerHolds, members } from '../../db/schema.ts';
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

/** null: every card of the merchant (its console) */
const inScope = (scope: CardScope | null) =>
  scope ? and(eq(cards.accountId, scope.accountId), scope.heldBy ? eq(cards.holderMemberId, scope.heldBy) : undefined) : undefined;

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

/** A card list's filter in the store's words: the contract's (CardListFilter), its statuses already split. */
export type CardListWhereFilter = Pick<CardListFilter, 'product_id' | 'keyword' | 'tag' | 'holder_member_id'> & { status?: readonly string[] | undefined };

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Where GET /card's filter chooses the cards of the scope (one rule for the list, the tag counts and
 * whatever acts on "all cards that match"): several statuses, a product, a tag, the holder, and a keyword
 * that is a nickname's part, the last four digits, the BIN's first 6–8 digits or a whole tag. A filter
 * no card can match (an id that is no id, another member's cards asked by a MEMBER) matches none.
 */
export function cardListWhere(merchantId: string, scope: CardScope | null, filter: CardListWhereFilter): SQL {
  const none = sql`false`;
  if (filter.product_id !== undefined && !isUuid(filter.product_id)) return none;
  const holder = filter.holder_member_id;
  if (holder !== undefined && (!isUuid(holder) || (scope?.heldBy !== undefined && holder !== scope.heldBy))) return none;
  const keyword = filter.keyword?.trim();
  let matchesKeyword: SQL | undefined;
  if (keyword) {
    const pattern = `%${escapeLike(keyword)}%`;
    // a keyword without letters that have a case (digits, 中文) finds the same nicknames with `like`,
    // which reads each nickname without folding it first: a BIN matching every card is checked against
    // every nickname too
    const caseless = keyword.toLowerCase() === keyword.toUpperCase();
    matchesKeyword = or(
      caseless ? like(cards.nickname, pattern) : ilike(cards.nickname, pattern),
      arrayContains(cards.tags, [keyword]),
      /^\d{4}$/.test(keyword) ? eq(cards.last4, keyword) : undefined,
      /^\d{6,8}$/.test(keyword) ? like(cards.bin, `${keyword}%`) : undefined,
    );
  }
  const tag = filter.tag?.trim();
  return and(
    eq(cards.merchantId, merchantId),
    inScope(scope),
    filter.status && filter.status.length > 0 ? (filter.status.length === 1 ? eq(cards.status, filter.status[0] as string) : inArray(cards.status, [...filter.status])) : undefined,
    filter.product_id ? eq(cards.productId, filter.product_id) : undefined,
    holder ? eq(cards.holderMemberId, holder) : undefined,
    tag ? arrayContains(cards.tags, [tag]) : undefined,
    matchesKeyword,
  ) as SQL;
}

/** From this offset on, a page is read from whichever end of the sort is nearer (the count is read first). */
const FAR_OFFSET = 200;

/**
 * A page of cards with their product's name, in the sort asked, and how many match. The page's ids are
 * found first (only the columns the sort needs); only then are the page's rows read and joined, so a far
 * page skips index entries rather than whole rows. A page past the middle is read from the other end, in
 * the opposite order, and turned round: the sort then keeps the page's rows alone (a top-N sort, or a
 * short walk of the index) rather than every row before it. Newest first walks the index
 * `cards_account_created` (created_at and id DESC NULLS LAST, as drizzle-kit writes `.desc()`; oldest first
 * walks it backwards, NULLS FIRST); the other sorts order the account's cards by their figure, with the id
 * to break ties the same way.
 * The figures are each card's row of card_figures at the moment (db/card-figures.ts: the same definition
 * spending's spendingFigures shows for a page), and for the balance the card's ledger account. Either is
 * read as one narrow figure per card from the account's rows (`card_figures_account`,
 * `ledger_accounts_holder_idx`), behind `offset 0` so that the planner cannot take the subquery apart,
 * and joined with nested loops off: a hash join then holds a card's id and figure, never the wide rows
 * with their 30-day rings, and nothing is probed or scanned once per card.
 */
export async function pageCards(
  db: Db,
  merchantId: string,
  /** null: every card of the merchant, newest first only (the console) */
  scope: CardScope | null,
  filter: CardListWhereFilter,
  sort: CardSort,
  at: FigureMoment,
  limit: number,
  offset: number,
) {
  const where = cardListWhere(merchantId, scope, filter);
  const { key, descending } = parseCardSort(sort);
  const idsInOrder = (desc: boolean, take: number, skip: number): Promise<Array<{ id: string }>> => {
    const direction = desc ? sql`desc nulls last` : sql`asc nulls first`;
    const byId = sql`${cards.id} ${direction}`;
    if (key === 'created_at' || !scope) {
      return db.select({ id: cards.id }).from(cards).where(where).orderBy(sql`${cards.createdAt} ${direction}`, byId).limit(take).offset(skip);
    }
    // a card with no row of card_figures has no authorisation: spent 0, rate 0, never used; a card with
    // no ledger account (its opening not yet ended) holds 0
    const terms = cardFigureTerms('f', at);
    const figures =
      key === 'balance'
        ? sql`(select l.owner_id as card_id, l.currency, l.balance - l.held as figure from ${ledgerAccounts} l
            where l.holder_id = ${scope.accountId} and l.kind = 'CARD' and l.shard = 0 and l.merchant_id = ${merchantId} offset 0) as fig`
        : sql`(select f.card_id, ${
            key === 'last_used_at'
              ? sql`f.last_used_at`
              : key === 'spent_this_month'
                ? terms.spent
                : sql`case when ${terms.authorised} = 0 then 0 else (${terms.declined})::float8 / (${terms.authorised}) end`
          } as figure from ${cardFigures} f where f.account_id = ${scope.accountId} offset 0) as fig`;
    const joined = key === 'balance' ? sql`fig.card_id = ${cards.id} and fig.currency = ${cards.currency}` : sql`fig.card_id = ${cards.id}`;
    const ordered = key === 'last_used_at' ? sql`fig.figure` : sql`coalesce(fig.figure, 0)`;
    // no nested loop: a plan kept for the statement (a generic plan, which does not know how many cards
    // match) would otherwise run the account's figures once per card; the setting is the transaction's
    // alone, and the statement is only ever planned under it
    return db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_nestloop = off`);
      return tx
        .select({ id: cards.id })
        .from(cards)
        .leftJoin(figures, joined)
        .where(where)
        .orderBy(sql`${ordered} ${direction}`, byId)
        .limit(take)
        .offset(skip);
    });
  };
  const counted = db.select({ n: count() }).from(cards).where(where);
  let ids: Array<{ id: string }>;
  let total: number;
  if (offset < FAR_OFFSET) {
    // on the pool, the count runs on a connection of its own beside the page's ids (the embedded database
    // takes them one after the other)
    const [page, [row]] = await readsOn(db, [() => idsInOrder(descending, limit, offset), () => counted]);
    ids = page;
    total = row?.n ?? 0;
  } else {
    total = (await counted)[0]?.n ?? 0;
    const fromEnd = total - offset - limit;
    if (offset >= total) ids = [];
    else if (fromEnd < offset) ids = (await idsInOrder(!descending, Math.min(limit, total - offset), Math.max(0, fromEnd))).reverse();
    else ids = await idsInOrder(descending, limit, offset);
  }
  const found =
    ids.length === 0
      ? []
      : await db
          .select({ card: cards, productName: cardProducts.name })
          .from(cards)
          .innerJoin(cardProducts, eq(cardProducts.id, cards.productId))
          .where(inArray(cards.id, ids.map((row) => row.id)));
  const byIdOf = new Map(found.map((row) => [row.card.id, row]));
  const rows = ids.map((row) => byIdOf.get(row.id)).filter((row): row is (typeof found)[number] => row !== undefined);
  return { rows, total };
}

/** The scope's tags, each with how many of its cards carry it: the most used first, then by name. */
export async function countTags(tx: Tx, merchantId: string, scope: CardScope) {
  const tag = sql<string>`tag`;
  const rows = await tx
    .select({ tag, n: sql<number>`count(*)::int` })
    .from(sql`${cards} cross join lateral unnest(${cards.tags}) as tag`)
    .where(and(eq(cards.merchantId, merchantId), inScope(scope)))
    .groupBy(tag)
    .orderBy(sql`count(*) desc`, tag);
  return rows.map((row) => ({ tag: row.tag, count: Number(row.n) }));
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
