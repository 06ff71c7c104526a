import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { big, type Row, rowsOf } from '../../db/raw-rows.ts';
import type { CardTransactionRow } from './store.ts';

/**
 * The SQL of spending across an account's cards: the transactions of every card with one filter, and
 * what was spent, summed in the database. Both read `card_transactions_account_created` (by account and
 * time, carrying the columns the summary filters on and sums), so the summary is read from the index alone.
 */

export interface AcrossFilter {
  merchantId: string;
  /** undefined: every account of the merchant (its console); the account's scope otherwise */
  accountId: string | undefined;
  /** set: only the cards this member holds (the caller's scope) */
  heldBy?: string | undefined;
  cardId?: string | undefined;
  tag?: string | undefined;
  holderMemberId?: string | undefined;
  merchant?: string | undefined;
  category?: string | undefined;
  currency?: string | undefined;
  type?: string | undefined;
  status?: string | undefined;
  /** each pair: from inclusive, before exclusive */
  ranges: Array<{ from: Date | null; before: Date | null }>;
}

/** `%` and `_` in a merchant's name match themselves. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function acrossWhere(filter: AcrossFilter): SQL {
  const parts: SQL[] = [sql`ct.merchant_id = ${filter.merchantId}`];
  if (filter.accountId) parts.push(sql`ct.account_id = ${filter.accountId}`);
  const cardParts: SQL[] = [];
  if (filter.heldBy) cardParts.push(sql`c.holder_member_id = ${filter.heldBy}`);
  if (filter.holderMemberId) cardParts.push(sql`c.holder_member_id = ${filter.holderMemberId}`);
  if (filter.tag) cardParts.push(sql`c.tags @> array[${filter.tag}]::text[]`);
  if (cardParts.length > 0) {
    const owner = filter.accountId ? sql`c.account_id = ${filter.accountId}` : sql`c.merchant_id = ${filter.merchantId}`;
    parts.push(sql`ct.card_id in (select c.id from cards c where ${owner} and ${sql.join(cardParts, sql` and `)})`);
  }
  if (filter.cardId) parts.push(sql`ct.card_id = ${filter.cardId}`);
  if (filter.merchant) parts.push(sql`ct.merchant_name ilike ${likePattern(filter.merchant)}`);
  if (filter.category) parts.push(sql`ct.mcc = ${filter.category}`);
  if (filter.currency) parts.push(sql`ct.currency = ${filter.currency}`);
  if (filter.type) parts.push(sql`ct.type = ${filter.type}`);
  if (filter.status) parts.push(sql`ct.status = ${filter.status}`);
  for (const range of filter.ranges) {
    if (range.from) parts.push(sql`ct.created_at >= ${range.from}`);
    if (range.before) parts.push(sql`ct.created_at < ${range.before}`);
  }
  return sql.join(parts, sql` and `);
}

export type AcrossRow = CardTransactionRow & { cardLast4: string | null; cardNickname: string };

const nullableText = (value: unknown) => (value === null || value === undefined ? null : String(value));
const instant = (value: unknown) => new Date(value as string | Date);

const acrossRowOf = (row: Row): AcrossRow => ({
  id: String(row.id),
  merchantId: String(row.merchant_id),
  cardId: String(row.card_id),
  accountId: String(row.account_id),
  type: String(row.type),
  status: String(row.status),
  amount: big(row.amount),
  currency: String(row.currency),
  merchantName: nullableText(row.merchant_name),
  mcc: nullableText(row.mcc),
  country: nullableText(row.country),
  declineReason: nullableText(row.decline_reason),
  declineCode: nullableText(row.decline_code),
  authorizationId: nullableText(row.authorization_id),
  authorizedAmount: row.authorized_amount === null ? null : big(row.authorized_amount),
  holdId: nullableText(row.hold_id),
  memo: nullableText(row.memo),
  ledgerTransactionId: nullableText(row.ledger_transaction_id),
  createdAt: instant(row.created_at),
  settledAt: row.settled_at === null ? null : instant(row.settled_at),
  cardLast4: nullableText(row.card_last4),
  cardNickname: String(row.card_nickname),
});

const acrossColumns = sql`ct.id, ct.merchant_id, ct.card_id, ct.account_id, ct.type, ct.status, ct.amount::text as amount, ct.currency,
  ct.merchant_name, ct.mcc, ct.country, ct.decline_reason, ct.decline_code, ct.authorization_id,
  ct.authorized_amount::text as authorized_amount, ct.hold_id, ct.memo, ct.ledger_transaction_id, ct.created_at, ct.settled_at,
  c.last4 as card_last4, c.nickname as card_nickname`;

/** A page of every card's transactions, newest first, and how many match. */
export async function pageAcross(tx: Tx, filter: AcrossFilter, limit: number, offset: number) {
  const where = acrossWhere(filter);
  const rows = await rowsOf(
    tx.execute(sql`select ${acrossColumns} from card_transactions ct join cards c on c.id = ct.card_id
      where ${where} order by ct.created_at desc, ct.id desc limit ${limit} offset ${offset}`),
  );
  return { rows: rows.map(acrossRowOf), total: await countAcross(tx, filter) };
}

export async function countAcross(tx: Tx, filter: AcrossFilter) {
  const [row] = await rowsOf(tx.execute(sql`select count(*)::int as n from card_transactions ct where ${acrossWhere(filter)}`));
  return Number(row?.n ?? 0);
}

/** The next rows after a cursor, newest first (an export written while it is read). */
export async function acrossAfter(tx: Tx, filter: AcrossFilter, after: { createdAt: Date; id: string } | null, limit: number) {
  const cursor = after ? sql` and (ct.created_at, ct.id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)` : sql``;
  const rows = await rowsOf(
    tx.execute(sql`select ${acrossColumns} from card_transactions ct join cards c on c.id = ct.card_id
      where ${acrossWhere(filter)}${cursor} order by ct.created_at desc, ct.id desc limit ${limit}`),
  );
  return rows.map(acrossRowOf);
}

/** What a group of authorisations came to: spent (approved and settled), asked, declined. */
export interface SpendFigures {
  key: string;
  amount: bigint;
  count: number;
  declined: number;
}

/** Keys the summary groups the authorisations by in SQL; the card's own groupings go by card first. */
export type SpendKey = 'day' | 'card' | 'merchant' | 'category';

const keyOf: Record<SpendKey, SQL> = {
  // the day in China time (UTC+8) as days since 1970-01-01, without the engine's time zone data: a number
  // to group by costs a million rows far less than a formatted date (the service writes it as YYYY-MM-DD)
  day: sql`((floor(extract(epoch from ct.created_at))::bigint + 28800) / 86400)::text`,
  card: sql`ct.card_id::text`,
  merchant: sql`coalesce(ct.merchant_name, '')`,
  category: sql`coalesce(ct.mcc, '')`,
};

const DAY_SECONDS = 86_400;
const CHINA_OFFSET_SECONDS = 28_800;

/** The China day (days since 1970-01-01) an instant begins; null when it is not a China midnight. */
function chinaDayAt(at: Date): number | null {
  const seconds = at.getTime() / 1000 + CHINA_OFFSET_SECONDS;
  return Number.isInteger(seconds) && seconds % DAY_SECONDS === 0 ? seconds / DAY_SECONDS : null;
}

/**
 * The days [from, before) the filter covers when `card_spend_days` can answer it: whole China days, and
 * nothing that only a row knows (its merchant, its category, a type or status of its own); null otherwise.
 */
function rolledUpDays(filter: AcrossFilter, key: SpendKey): Array<{ from: number | null; before: number | null }> | null {
  if (key !== 'day' && key !== 'card') return null;
  if (filter.merchant || filter.category || filter.type || filter.status) return null;
  const days: Array<{ from: number | null; before: number | null }> = [];
  for (const range of filter.ranges) {
    const from = range.from ? chinaDayAt(range.from) : null;
    const before = range.before ? chinaDayAt(range.before) : null;
    if ((range.from && from === null) || (range.before && before === null)) return null;
    days.push({ from, before });
  }
  return days;
}

/** The filter on `card_spend_days d`: the same cards, currency and days as acrossWhere's on the rows. */
function rolledUpWhere(filter: AcrossFilter, days: Array<{ from: number | null; before: number | null }>): SQL {
  const parts: SQL[] = [sql`d.merchant_id = ${filter.merchantId}`, sql`d.account_id = ${filter.accountId}`];
  const cardParts: SQL[] = [];
  if (filter.heldBy) cardParts.push(sql`c.holder_member_id = ${filter.heldBy}`);
  if (filter.holderMemberId) cardParts.push(sql`c.holder_member_id = ${filter.holderMemberId}`);
  if (filter.tag) cardParts.push(sql`c.tags @> array[${filter.tag}]::text[]`);
  if (cardParts.length > 0) {
    parts.push(sql`d.card_id in (select c.id from cards c where c.account_id = ${filter.accountId} and ${sql.join(cardParts, sql` and `)})`);
  }
  if (filter.cardId) parts.push(sql`d.card_id = ${filter.cardId}`);
  if (filter.currency) parts.push(sql`d.currency = ${filter.currency}`);
  for (const range of days) {
    if (range.from !== null) parts.push(sql`d.day >= ${range.from}`);
    if (range.before !== null) parts.push(sql`d.day < ${range.before}`);
  }
  return sql.join(parts, sql` and `);
}

const rolledUpKeyOf: Record<'day' | 'card', SQL> = { day: sql`d.day::text`, card: sql`d.card_id::text` };

/**
 * The authorisations matching the filter, summed per key, in one pass: by day or by card over the
 * per-card, per-day sums of `card_spend_days` (index card_spend_days_account_day) when the filter allows,
 * else over the rows. Both answer the same figures (test api/card-spending-across.test.ts compares them).
 */
export async function spendBy(tx: Tx, filter: AcrossFilter, key: SpendKey, { rows = false } = {}): Promise<SpendFigures[]> {
  const days = rows ? null : rolledUpDays(filter, key);
  const read =
    days && (key === 'day' || key === 'card')
      ? sql`select ${rolledUpKeyOf[key]} as key, coalesce(sum(d.amount), 0)::text as amount, sum(d.count)::int as count, sum(d.declined)::int as declined
          from card_spend_days d
          where ${rolledUpWhere(filter, days)}
          group by 1`
      : sql`select ${keyOf[key]} as key,
          coalesce(sum(ct.amount) filter (where ct.status in ('PENDING', 'CLOSED')), 0)::text as amount,
          count(*)::int as count,
          (count(*) filter (where ct.decline_code is not null))::int as declined
        from card_transactions ct
        where ${acrossWhere({ ...filter, type: 'CONSUME' })}
        group by 1`;
  const found = await rowsOf(tx.execute(read));
  return found.map((row) => ({ key: String(row.key), amount: big(row.amount), count: Number(row.count), declined: Number(row.declined) }));
}

/** The account's cards by id, as the summary names them and groups them by tag and holder. */
export async function cardsNamed(tx: Tx, accountId: string, ids: string[]) {
  if (ids.length === 0) return new Map<string, { nickname: string; last4: string | null; tags: string[]; holderMemberId: string }>();
  const rows = await rowsOf(
    tx.execute(sql`select id::text as id, nickname, last4, tags, holder_member_id::text as holder
      from cards where account_id = ${accountId} and id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`),
  );
  return new Map(
    rows.map((row) => [
      String(row.id),
      { nickname: String(row.nickname), last4: nullableText(row.last4), tags: (row.tags as string[] | null) ?? [], holderMemberId: String(row.holder) },
    ]),
  );
}

/** The account's members by id (phone and role), as the summary names holders. */
export async function membersNamed(tx: Tx, accountId: string, ids: string[]) {
  if (ids.length === 0) return new Map<string, { phone: string; role: string }>();
  const rows = await rowsOf(
    tx.execute(sql`select id::text as id, phone, role from members where account_id = ${accountId} and id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`),
  );
  return new Map(rows.map((row) => [String(row.id), { phone: String(row.phone), role: String(row.role) }]));
}
