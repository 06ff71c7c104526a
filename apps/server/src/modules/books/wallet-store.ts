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
