import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { BALANCE_STATUS_AVAILABLE, BALANCE_STATUS_FROZEN, } from '@portal/contract/enums';
import { big, type Row, rowsOf } from '../../db/raw-rows.ts';

/**
 * The SQL of a wallet in the ledger: its status, its frozen flag, and its postings as its transaction list
 * shows them. Amounts travel as text and are cast in SQL, so no engine ever turns a bigint into a
 * binary float on the way.
 */

// The ledger keeps the wallet's status row (table `wallets`): it refuses money leaving a frozen wallet,
// creates the row with the wallet's first account, and orders a freeze against movements by it.

export async function findWalletStatus(tx: Tx, merchantId: string, accountId: string) {
  const [row] = await rowsOf(
    tx.execute(sql`select status, status_reason, status_changed_at from wallets where account_id = ${accountId} and merchant_id = ${merchantId}`),
  );
  if (!row) return undefined;
  return {
    status: String(row.status),
    reason: String(row.status_reason),
    changedAt: row.status_changed_at === null ? null : new Date(row.status_changed_at as string | Date),
  };
}

/** Freezes the wallet; false when it was frozen already (or is not this merchant's). */
export async function freezeWalletRow(tx: Tx, merchantId: string, accountId: string, reason: string, at: Date) {
  const rows = await rowsOf(
    tx.execute(sql`insert into wallets (account_id, merchant_id, status, status_reason, status_changed_at)
      select ${accountId}, ${merchantId}, ${BALANCE_STATUS_FROZEN}, ${reason}, ${at}
      where exists (select 1 from accounts where id = ${accountId} and merchant_id = ${merchantId})
      on conflict (account_id) do update set status = excluded.status, status_reason = excluded.status_reason,
        status_changed_at = excluded.status_changed_at
      where wallets.status <> excluded.status and wallets.merchant_id = excluded.merchant_id
      returning account_id`),
  );
  return rows.length === 1;
}

/** Unfreezes the wallet; false when it was not frozen. */
export async function unfreezeWalletRow(tx: Tx, merchantId: string, accountId: string, at: Date) {
  const rows = await rowsOf(
    tx.execute(sql`update wallets set status = ${BALANCE_STATUS_AVAILABLE}, status_reason = '', status_changed_at = ${at}
      where account_id = ${accountId} and merchant_id = ${merchantId} and status <> ${BALANCE_STATUS_AVAILABLE}
      returning account_id`),
  );
  return rows.length === 1;
}

/**
 * Marks a customer's wallet accounts (every currency) frozen or not, in id order. Every movement
 * locks those rows, so it either commits before the change or sees it.
 */
export async function setWalletAccountsFrozen(tx: Tx, merchantId: string, holderId: string, frozen: boolean) {
  await tx.execute(sql`update ledger_accounts set frozen = ${frozen}
    where id in (select id from ledger_accounts where merchant_id = ${merchantId} and kind = 'WALLET' and owner_id = ${holderId} order by id for update)`);
}

// ── a wallet's postings, as its transaction list shows them ──

export interface WalletPostingFilter {
  type?: string | undefined;
  currency?: string | undefined;
  from: Date | null;
  before: Date | null;
}

function walletPostingWhere(merchantId: string, holderId: string, filter: WalletPostingFilter): SQL {
  const parts: SQL[] = [sql`la.merchant_id = ${merchantId}`, sql`la.kind = 'WALLET'`, sql`la.owner_id = ${holderId}`];
  if (filter.currency) parts.push(sql`la.currency = ${filter.currency}`);
  if (filter.type) parts.push(sql`p.type = ${filter.type}`);
  if (filter.from) parts.push(sql`p.created_at >= ${filter.from}`);
  if (filter.before) parts.push(sql`p.created_at < ${filter.before}`);
  return sql.join(parts, sql` and `);
}

export interface WalletPostingRow {
  id: string;
  transactionId: string;
  type: string;
  currency: string;
  amount: bigint;
  balanceAfter: bigint;
  createdAt: Date;
  reference: string;
  memo: string;
  reversesId: string | null;
}

const walletPostingOf = (row: Row): WalletPostingRow => ({
  id: String(row.id),
  transactionId: String(row.transaction_id),
  type: String(row.type),
  currency: String(row.currency),
  amount: big(row.amount),
  balanceAfter: big(row.balance_after),
  createdAt: new Date(row.created_at as string | Date),
  reference: String(row.reference),
  memo: String(row.memo),
  reversesId: row.reverses_id === null ? null : String(row.reverses_id),
});

const walletPostingColumns = sql`p.id::text as id, p.transaction_id, p.type, la.currency, p.amount::text as amount,
  p.balance_after::text as balance_after, p.created_at, t.reference, t.memo, t.reverses_id`;

/** The wallet's postings, newest first, one page, and how many there are in all. */
export async function pageWalletPostings(tx: Tx, merchantId: string, holderId: string, filter: WalletPostingFilter, limit: number, offset: number) {
  const where = walletPostingWhere(merchantId, holderId, filter);
  const [rows, total] = await Promise.all([
    rowsOf(
      tx.execute(sql`select ${walletPostingColumns}
        from ledger_postings p join ledger_accounts la on la.id = p.ledger_account_id join ledger_transactions t on t.id = p.transaction_id
        where ${where} order by p.created_at desc, p.id desc limit ${limit} offset ${offset}`),
    ),
    countWalletPostings(tx, merchantId, holderId, filter),
  ]);
  return { rows: rows.map(walletPostingOf), total };
}

export async function countWalletPostings(tx: Tx, merchantId: string, holderId: string, filter: WalletPostingFilter) {
  const [row] = await rowsOf(
    tx.execute(sql`select count(*)::int as n from ledger_postings p join ledger_accounts la on la.id = p.ledger_account_id
      where ${walletPostingWhere(merchantId, holderId, filter)}`),
  );
  return Number(row?.n ?? 0);
}

/** The next rows after a cursor (newest first), for exports that read the whole list in parts. */
export async function walletPostingsAfter(
  tx: Tx,
  merchantId: string,
  holderId: string,
  filter: WalletPostingFilter,
  after: { createdAt: Date; id: string } | null,
  limit: number,
) {
  const cursor = after ? sql` and (p.created_at, p.id) < (${after.createdAt}::timestamptz, ${after.id}::bigint)` : sql``;
  const rows = await rowsOf(
    tx.execute(sql`select ${walletPostingColumns}
      from ledger_postings p join ledger_accounts la on la.id = p.ledger_account_id join ledger_transactions t on t.id = p.transaction_id
      where ${walletPostingWhere(merchantId, holderId, filter)}${cursor} order by p.created_at desc, p.id desc limit ${limit}`),
  );
  return rows.map(walletPostingOf);
}

// ── the wallet's list as its screen and export show it: an operation of many cards is one row ──

/**
 * A row of the wallet's list: one posting, or the postings of one operation on many cards (a batch
 * opening) summed into one, keyed by the reference of the holds they settled (`batch:<id>`).
 */
export interface WalletListRow extends WalletPostingRow {
  /** the reference the row's postings share when it stands for many; null for a single posting */
  groupRef: string | null;
  /** the cards a group's postings went to, and how many postings it holds */
  groupCards: number;
  groupParts: number;
  /** a card's first load, posted when the card was issued */
  firstLoad: boolean;
  /** the order of the list after the time: the posting's id, a group's last */
  orderId: string;
}

/** The holds' reference prefixes whose postings are shown as one row each (`batch` of `batch:<id>`). */
export type GroupPrefixes = readonly string[];

const walletListRowOf = (row: Row): WalletListRow => ({
  ...walletPostingOf(row),
  groupRef: row.group_ref === null ? null : String(row.group_ref),
  groupCards: Number(row.group_cards),
  groupParts: Number(row.group_parts),
  firstLoad: row.first_load === true,
  orderId: String(row.order_id),
});

/** The wallet's postings with what ties them to a card and to an operation on many cards. */
function walletPostingsTied(merchantId: string, holderId: string, filter: WalletPostingFilter, prefixes: GroupPrefixes) {
  const grouped = prefixes.length > 0 ? sql`split_part(h.reference, ':', 1) in (${sql.join(prefixes.map((prefix) => sql`${prefix}`), sql`, `)})` : sql`false`;
  return sql`select p.id, p.transaction_id, p.type, la.currency, p.amount, p.balance_after, p.created_at, t.reference, t.memo, t.reverses_id,
      case when ${grouped} then h.reference end as group_ref,
      -- the card a posting is for: a first load's or an opening fee's, else the card a top-up names (card:<id>)
      coalesce(load_card.id, fee_card.id, case when t.reference ~ '^card:[0-9a-f-]{36}$' then substr(t.reference, 6)::uuid end) as card_id,
      load_card.id is not null as first_load
    from ledger_postings p
    join ledger_accounts la on la.id = p.ledger_account_id
    join ledger_transactions t on t.id = p.transaction_id
    left join ledger_holds h on h.settled_transaction_id = p.transaction_id and h.ledger_account_id = p.ledger_account_id
    left join cards load_card on load_card.load_hold_id = h.id
    left join cards fee_card on fee_card.fee_hold_id = h.id
    where ${walletPostingWhere(merchantId, holderId, filter)}`;
}

/** The list's rows: single postings as they are, each group summed into one row with its last posting's time and balance. */
function walletListRows(merchantId: string, holderId: string, filter: WalletPostingFilter, prefixes: GroupPrefixes) {
  return sql`with tied as (${walletPostingsTied(merchantId, holderId, filter, prefixes)})
    select id as order_id, id::text as id, transaction_id::text as transaction_id, type, currency, amount::text as amount,
      balance_after::text as balance_after, created_at, reference, memo, reverses_id::text as reverses_id,
      null::text as group_ref, 0 as group_cards, 0 as group_parts, first_load
    from tied where group_ref is null
    union all
    select max(id), group_ref, group_ref, min(type), min(currency), sum(amount)::text,
      ((array_agg(balance_after order by id desc))[1])::text, max(created_at), group_ref, '', null::text,
      group_ref, count(distinct card_id)::int, count(*)::int, false
    from tied where group_ref is not null
    group by group_ref, currency`;
}

/** A page of the wallet's list, newest first, and how many rows it has in all. */
export async function pageWalletList(tx: Tx, merchantId: string, holderId: string, filter: WalletPostingFilter, prefixes: GroupPrefixes, limit: number, offset: number) {
  const listed = walletListRows(merchantId, holderId, filter, prefixes);
  const [rows, counted] = await Promise.all([
    rowsOf(tx.execute(sql`select * from (${listed}) rows order by created_at desc, order_id desc limit ${limit} offset ${offset}`)),
    rowsOf(tx.execute(sql`select count(*)::int as n from (${listed}) rows`)),
  ]);
  return { rows: rows.map(walletListRowOf), total: Number(counted[0]?.n ?? 0) };
}

export async function countWalletList(tx: Tx, merchantId: string, holderId: string, filter: WalletPostingFilter, prefixes: GroupPrefixes) {
  const [row] = await rowsOf(tx.execute(sql`select count(*)::int as n from (${walletListRows(merchantId, holderId, filter, prefixes)}) rows`));
  return Number(row?.n ?? 0);
}

/** The next rows of the list after a cursor, newest first (an export reading the list in parts). */
export async function walletListAfter(
  tx: Tx,
  merchantId: string,
  holderId: string,
  filter: WalletPostingFilter,
  prefixes: GroupPrefixes,
  after: { createdAt: Date; orderId: string } | null,
  limit: number,
) {
  const cursor = after ? sql`where (created_at, order_id) < (${after.createdAt}::timestamptz, ${after.orderId}::bigint)` : sql``;
  const rows = await rowsOf(
    tx.execute(sql`select * from (${walletListRows(merchantId, holderId, filter, prefixes)}) rows ${cursor} order by created_at desc, order_id desc limit ${limit}`),
  );
  return rows.map(walletListRowOf);
}

/** The postings of one group (its reference), newest first: what its row expands to. */
export async function walletGroupParts(tx: Tx, merchantId: string, holderId: string, groupRef: string, limit: number, offset: number) {
  const tied = walletPostingsTied(merchantId, holderId, { from: null, before: null }, [groupRef.split(':')[0] ?? '']);
  const where = sql`where group_ref = ${groupRef}`;
  const [rows, counted] = await Promise.all([
    rowsOf(
      tx.execute(sql`with tied as (${tied}) select id as order_id, id::text as id, transaction_id::text as transaction_id, type, currency,
        amount::text as amount, balance_after::text as balance_after, created_at, reference, memo, reverses_id::text as reverses_id,
        null::text as group_ref, 0 as group_cards, 0 as group_parts, first_load
        from tied ${where} order by created_at desc, id desc limit ${limit} offset ${offset}`),
    ),
    rowsOf(tx.execute(sql`with tied as (${tied}) select count(*)::int as n from tied ${where}`)),
  ]);
  return { rows: rows.map(walletListRowOf), total: Number(counted[0]?.n ?? 0) };
}
