import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, getTableColumns, gte, inArray, isNotNull, lt, sql, sum } from 'drizzle-orm';
import { builtOnce } from '../../db/built-once.ts';
import type { Tx } from '../../db/engine.ts';
import { cardFigureTerms, type FigureMoment } from '../../db/card-figures.ts';
import { cardControls, cardFigures, cards, cardTransactions, chargesOwed } from '../../db/schema.ts';
import { type EventRecord, eventRecording } from '../issuer/event-record.ts';

/** The SQL of a card's spending: its authorisations, controls, debts and 3-D Secure messages. */

export type CardTransactionRow = typeof cardTransactions.$inferSelect;
export type ControlsRow = typeof cardControls.$inferSelect;

/** A notification (pg_notify's channel and payload) that the statement writing a row sends itself. */
export interface RowSignal {
  channel: string;
  payload: string;
}

const columns = getTableColumns(cardTransactions);
/** The written row, and the statement's own pg_notify: the signal goes out with the row, one round trip for both. */
const returningWith = (signal: RowSignal) => ({ ...columns, signalled: sql<string>`pg_notify(${signal.channel}, ${signal.payload})::text` });

/** What a row's signal tells of it. */
export type SignalledRow = Pick<CardTransactionRow, 'id' | 'type' | 'status' | 'amount' | 'currency'> & {
  merchantName?: string | null | undefined;
  declineCode?: string | null | undefined;
};

type ColumnName = keyof typeof columns;
const columnNames = Object.keys(columns) as ColumnName[];

/** The insert of a card transaction with every column a value, and its signal: an authorisation's, so built once. */
const insertSignalled = builtOnce((tx) =>
  tx
    .insert(cardTransactions)
    // each value as given (sql`` keeps the column's conversion out: a null timestamp is null, not an error)
    .values(Object.fromEntries(columnNames.map((name) => [name, sql`${sql.placeholder(name)}`])) as never)
    .returning({ ...columns, signalled: sql<string>`pg_notify(${sql.placeholder('channel')}, ${sql.placeholder('payload')})::text` })
    .prepare(''),
);

/** Writes a card transaction, sending the signal `signalOf` makes of it in the same statement, and answers it. */
export async function insertSpending(tx: Tx, values: typeof cardTransactions.$inferInsert & { createdAt: Date }, signalOf: (row: SignalledRow) => RowSignal) {
  const row = { ...values, id: values.id ?? randomUUID() };
  const signal = signalOf(row);
  const given: Record<string, unknown> = { channel: signal.channel, payload: signal.payload };
  // minor units as text: the driver takes them so on either engine
  for (const name of columnNames) {
    const value = row[name];
    given[name] = value === undefined ? null : typeof value === 'bigint' ? value.toString() : value;
  }
  const [written] = await insertSignalled(tx, given);
  if (!written) throw new Error('card transaction insert returned nothing');
  const { signalled: _signalled, ...rest } = written;
  return rest;
}

/** Changes a card transaction, sending the signal `signalOf` makes of it as changed, and answers it. */
export async function updateSpending(
  tx: Tx,
  before: CardTransactionRow,
  changes: Partial<typeof cardTransactions.$inferInsert>,
  signalOf: (row: SignalledRow) => RowSignal,
) {
  const [written] = await tx
    .update(cardTransactions)
    .set(changes)
    .where(eq(cardTransactions.id, before.id))
    .returning(returningWith(signalOf({ ...before, ...changes })));
  if (!written) throw new Error(`card transaction ${before.id} vanished`);
  const { signalled: _signalled, ...rest } = written;
  return rest;
}

/** The card's authorisation (its CONSUME row) with that issuer id. */
export async function findAuthorization(tx: Tx, cardId: string, authorizationId: string) {
  const [row] = await tx
    .select()
    .from(cardTransactions)
    .where(and(eq(cardTransactions.cardId, cardId), eq(cardTransactions.authorizationId, authorizationId), eq(cardTransactions.type, 'CONSUME')))
    .limit(1);
  return row;
}

/**
 * An authorisation's card, locked, with its controls and its authorisation of that issuer id if it has
 * one already, in the statement that records the event's id (`first`: it was new): one statement where
 * four would be (an authorisation's answer is waited for), its text built once per connection. No row:
 * no such card.
 */
const lockForAuthorization = builtOnce((tx) => {
  const recorded = eventRecording(tx);
  return tx
    .with(recorded)
    .select({ first: sql<number>`(select count(*) from ${recorded})::int`, card: cards, controls: cardControls, earlier: cardTransactions })
    .from(cards)
    .leftJoin(cardControls, eq(cardControls.cardId, cards.id))
    .leftJoin(
      cardTransactions,
      and(
        eq(cardTransactions.cardId, cards.id),
        eq(cardTransactions.authorizationId, sql.placeholder('authorizationId')),
        eq(cardTransactions.type, 'CONSUME'),
      ),
    )
    .where(eq(cards.id, sql.placeholder('cardId')))
    .limit(1)
    .for('update', { of: cards })
    .prepare('');
});

export async function lockCardForAuthorization(tx: Tx, cardId: string, authorizationId: string, record: EventRecord) {
  const [row] = await lockForAuthorization(tx, { cardId, authorizationId, ...record.values });
  return row ? { ...row, first: row.first === 1 } : undefined;
}

/** Which card an authorisation is on (settlements and reversals name only the authorisation). */
export async function cardOfAuthorization(tx: Tx, authorizationId: string) {
  const [row] = await tx
    .select({ cardId: cardTransactions.cardId })
    .from(cardTransactions)
    .where(and(eq(cardTransactions.authorizationId, authorizationId), eq(cardTransactions.type, 'CONSUME')))
    .limit(1);
  return row?.cardId;
}

/** Authorisations still pending (neither settled nor reversed) that were made before `before`, oldest first. */
export async function pendingAuthorizationsBefore(tx: Tx, before: Date, limit: number) {
  const rows = await tx
    .select({ cardId: cardTransactions.cardId, authorizationId: cardTransactions.authorizationId })
    .from(cardTransactions)
    .where(and(eq(cardTransactions.status, 'PENDING'), eq(cardTransactions.type, 'CONSUME'), lt(cardTransactions.createdAt, before)))
    .orderBy(cardTransactions.createdAt)
    .limit(limit);
  return rows.filter((row): row is { cardId: string; authorizationId: string } => row.authorizationId !== null);
}

/** What the card spent since `since`: approved (PENDING) and settled (CLOSED) CONSUME amounts. */
export async function spentSince(tx: Tx, cardId: string, since: Date) {
  const [row] = await tx
    .select({ total: sum(cardTransactions.amount) })
    .from(cardTransactions)
    .where(
      and(
        eq(cardTransactions.cardId, cardId),
        eq(cardTransactions.type, 'CONSUME'),
        inArray(cardTransactions.status, ['PENDING', 'CLOSED']),
        gte(cardTransactions.createdAt, since),
      ),
    );
  return BigInt(row?.total ?? 0);
}

/**
 * Per card of a page, its figures at the moment as card_figures keeps them (db/card-figures.ts, the same
 * definition the card list sorts by): spent this month, the authorisations of the decline-rate window
 * with how many of them were declined, and the last authorisation's time. A card with no authorisation
 * is not in the map.
 */
export async function spendingFigures(tx: Tx, cardIds: string[], at: FigureMoment) {
  if (cardIds.length === 0) return new Map<string, { spentThisMonth: bigint; declined: number; total: number; lastUsedAt: Date | null }>();
  const terms = cardFigureTerms('f', at);
  const rows = await tx
    .select({
      cardId: sql<string>`f.card_id`,
      spent: sql<string>`(${terms.spent})::text`,
      declined: sql<number>`(${terms.declined})::int`,
      total: sql<number>`(${terms.authorised})::int`,
      lastUsedAt: sql<Date | null>`f.last_used_at`.mapWith(cardFigures.lastUsedAt),
    })
    .from(sql`${cardFigures} f`)
    .where(inArray(sql`f.card_id`, cardIds));
  return new Map(
    rows.map((row) => [
      row.cardId,
      { spentThisMonth: BigInt(row.spent), declined: Number(row.declined), total: Number(row.total), lastUsedAt: row.lastUsedAt ?? null },
    ]),
  );
}

/** A page of the card's transactions, newest first, within the filter's time range, and how many match. */
export async function pageSpending(
  tx: Tx,
  cardId: string,
  filter: { type?: string | undefined; status?: string | undefined; from: Date | null; before: Date | null },
  limit: number,
  offset: number,
) {
  const where = spendingWhere(cardId, filter);
  const rows = await tx.select().from(cardTransactions).where(where).orderBy(desc(cardTransactions.createdAt), desc(cardTransactions.id)).limit(limit).offset(offset);
  const [total] = await tx.select({ n: count() }).from(cardTransactions).where(where);
  return { rows, total: total?.n ?? 0 };
}

export async function countSpending(tx: Tx, cardId: string, filter: SpendingFilter) {
  const [total] = await tx.select({ n: count() }).from(cardTransactions).where(spendingWhere(cardId, filter));
  return total?.n ?? 0;
}

type SpendingFilter = { type?: string | undefined; status?: string | undefined; from: Date | null; before: Date | null };

function spendingWhere(cardId: string, filter: { type?: string | undefined; status?: string | undefined; from: Date | null; before: Date | null }) {
  return and(
    eq(cardTransactions.cardId, cardId),
    filter.type ? eq(cardTransactions.type, filter.type) : undefined,
    filter.status ? eq(cardTransactions.status, filter.status) : undefined,
    filter.from ? gte(cardTransactions.createdAt, filter.from) : undefined,
    filter.before ? lt(cardTransactions.createdAt, filter.before) : undefined,
  );
}

/** The next rows after a cursor, newest first (for an export written while it is read). */
export async function spendingAfter(
  tx: Tx,
  cardId: string,
  filter: { type?: string | undefined; status?: string | undefined; from: Date | null; before: Date | null },
  after: { createdAt: Date; id: string } | null,
  limit: number,
) {
  const cursor = after
    ? sql`(${cardTransactions.createdAt}, ${cardTransactions.id}) < (${after.createdAt}, ${after.id})`
    : undefined;
  return tx
    .select()
    .from(cardTransactions)
    .where(and(spendingWhere(cardId, filter), cursor))
    .orderBy(desc(cardTransactions.createdAt), desc(cardTransactions.id))
    .limit(limit);
}

// ── controls ──

export async function findControls(tx: Tx, cardId: string) {
  const [row] = await tx.select().from(cardControls).where(eq(cardControls.cardId, cardId)).limit(1);
  return row;
}

export async function saveControls(tx: Tx, values: typeof cardControls.$inferInsert) {
  const { cardId: _cardId, ...changes } = values;
  const [row] = await tx.insert(cardControls).values(values).onConflictDoUpdate({ target: cardControls.cardId, set: changes }).returning();
  if (!row) throw new Error('controls upsert returned nothing');
  return row;
}

// ── what is owed ──

/** Records a debt once per kind and authorisation; false when it was recorded before. */
export async function recordOwed(tx: Tx, values: typeof chargesOwed.$inferInsert) {
  const rows = await tx.insert(chargesOwed).values(values).onConflictDoNothing().returning({ id: chargesOwed.id });
  return rows.length === 1;
}

/** What the account still owes in `currency`, oldest first, each row locked until the caller's transaction ends. */
export async function openOwedForUpdate(tx: Tx, merchantId: string, accountId: string, currency: string) {
  return tx
    .select()
    .from(chargesOwed)
    .where(
      and(eq(chargesOwed.merchantId, merchantId), eq(chargesOwed.accountId, accountId), eq(chargesOwed.currency, currency), lt(chargesOwed.collected, chargesOwed.amount)),
    )
    .orderBy(chargesOwed.createdAt, chargesOwed.id)
    .for('update');
}

/** The open debts of these accounts in one currency, locked in one order (account, then oldest first). */
export async function openOwedForUpdateMany(tx: Tx, merchantId: string, accountIds: string[], currency: string) {
  if (accountIds.length === 0) return [];
  return tx
    .select()
    .from(chargesOwed)
    .where(
      and(eq(chargesOwed.merchantId, merchantId), sql`${chargesOwed.accountId} = any(${sql.param(accountIds)}::uuid[])`, eq(chargesOwed.currency, currency), lt(chargesOwed.collected, chargesOwed.amount)),
    )
    .orderBy(chargesOwed.accountId, chargesOwed.createdAt, chargesOwed.id)
    .for('update');
}

/** Adds what was collected of each debt, in one statement; paid off (collected_at) when it reaches the amount. */
export async function markCollectedMany(tx: Tx, taken: Array<{ id: string; amount: bigint }>, at: Date) {
  if (taken.length === 0) return;
  await tx.execute(sql`update charges_owed o set collected = o.collected + v.taken,
      collected_at = case when o.collected + v.taken >= o.amount then ${at.toISOString()}::timestamptz else null end
    from unnest(${sql.param(taken.map((row) => row.id))}::uuid[], ${sql.param(taken.map((row) => row.amount.toString()))}::bigint[]) as v(id, taken) where o.id = v.id`);
}

/** Adds what was collected of a debt; paid off (collected_at) when it reaches the amount. */
export async function markCollected(tx: Tx, id: string, taken: bigint, at: Date) {
  await tx
    .update(chargesOwed)
    .set({
      collected: sql`${chargesOwed.collected} + ${taken}`,
      collectedAt: sql`case when ${chargesOwed.collected} + ${taken} >= ${chargesOwed.amount} then ${at.toISOString()}::timestamptz else null end`,
    })
    .where(eq(chargesOwed.id, id));
}

export async function owedOf(tx: Tx, merchantId: string, accountId: string) {
  return tx
    .select()
    .from(chargesOwed)
    .where(and(eq(chargesOwed.merchantId, merchantId), eq(chargesOwed.accountId, accountId), isNotNull(chargesOwed.amount)));
}
