import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { big, type Row, rowsOf } from '../../db/raw-rows.ts';

/**
 * The SQL of a monthly statement: the customer's ledger accounts of one currency (the wallet and every
 * card) with what each held before the month, what came in and went out during it and what it held at
 * its end, and the month's postings one by one. A posting belongs to the month its time falls in, and
 * every figure is a sum of postings, so each account's opening plus its movements is its closing to the
 * cent, and the last month's closing is the ledger's balance.
 */

export interface StatementScope {
  merchantId: string;
  accountId: string;
  currency: string;
  start: Date;
  end: Date;
}

/** One ledger account on the statement: the wallet, or a card (with its name). */
export interface StatementAccount {
  ledgerAccountId: string;
  side: 'WALLET' | 'CARD';
  cardId: string | null;
  last4: string | null;
  nickname: string;
  opening: bigint;
  credits: bigint;
  debits: bigint;
  closing: bigint;
  movements: number;
}

const customerAccounts = (scope: StatementScope) => sql`la.merchant_id = ${scope.merchantId} and la.currency = ${scope.currency}
  and la.holder_id = ${scope.accountId} and la.kind in ('WALLET', 'CARD')`;

/**
 * Every account of the customer in the currency that held money before the month or moved during it;
 * one pass over each account's postings up to the month's end (index ledger_postings_account_idx).
 */
export async function statementAccounts(tx: Tx, scope: StatementScope): Promise<StatementAccount[]> {
  const start = scope.start.toISOString();
  const rows = await rowsOf(
    tx.execute(sql`select la.id::text as id, la.kind, c.id::text as card_id, c.last4, coalesce(c.nickname, '') as nickname,
        coalesce(sum(p.amount) filter (where p.created_at < ${start}::timestamptz), 0)::text as opening,
        coalesce(sum(p.amount) filter (where p.created_at >= ${start}::timestamptz and p.amount > 0), 0)::text as credits,
        coalesce(sum(-p.amount) filter (where p.created_at >= ${start}::timestamptz and p.amount < 0), 0)::text as debits,
        coalesce(sum(p.amount), 0)::text as closing,
        (count(p.id) filter (where p.created_at >= ${start}::timestamptz))::int as movements
      from ledger_accounts la
      left join ledger_postings p on p.ledger_account_id = la.id and p.created_at < ${scope.end.toISOString()}::timestamptz
      left join cards c on la.kind = 'CARD' and c.id = la.owner_id and c.merchant_id = la.merchant_id
      where ${customerAccounts(scope)}
      group by la.id, la.kind, c.id, c.last4, c.nickname, c.created_at
      having coalesce(sum(p.amount) filter (where p.created_at < ${start}::timestamptz), 0) <> 0
        or count(p.id) filter (where p.created_at >= ${start}::timestamptz) > 0
      order by la.kind desc, c.created_at, la.id`),
  );
  return rows.map((row) => ({
    ledgerAccountId: String(row.id),
    side: row.kind === 'WALLET' ? 'WALLET' : 'CARD',
    cardId: row.card_id === null ? null : String(row.card_id),
    last4: row.last4 === null ? null : String(row.last4),
    nickname: String(row.nickname),
    opening: big(row.opening),
    credits: big(row.credits),
    debits: big(row.debits),
    closing: big(row.closing),
    movements: Number(row.movements),
  }));
}

/** One posting of the month, as the statement lists it. */
export interface StatementMovement {
  id: string;
  side: 'WALLET' | 'CARD';
  type: string;
  amount: bigint;
  balanceAfter: bigint;
  /** wallet postings: what of the operation went to the merchant's fee income (a reversal's is negative) */
  fee: bigint;
  createdAt: Date;
  memo: string;
  reversal: boolean;
  firstLoad: boolean;
  cardId: string | null;
  last4: string | null;
  nickname: string;
}

const CARD_REFERENCE = '^card:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

/** The card a posting concerns: the card's own account, or the card a wallet operation names in its reference. */
const postingCard = sql`case when la.kind = 'CARD' then la.owner_id
  when t.reference ~ ${CARD_REFERENCE} then substr(t.reference, 6)::uuid end`;

const movementOf = (row: Row): StatementMovement => ({
  id: String(row.id),
  side: row.kind === 'WALLET' ? 'WALLET' : 'CARD',
  type: String(row.type),
  amount: big(row.amount),
  balanceAfter: big(row.balance_after),
  fee: big(row.fee),
  createdAt: new Date(row.created_at as string | Date),
  memo: String(row.memo),
  reversal: row.reversal === true,
  firstLoad: row.first_load === true,
  cardId: row.card_id === null ? null : String(row.card_id),
  last4: row.last4 === null ? null : String(row.last4),
  nickname: String(row.nickname ?? ''),
});

/**
 * The month's postings of the wallet (`side` WALLET) or of the cards, in the ledger's order, after a cursor;
 * `limit` at a time so a long month is read in parts.
 */
export async function statementMovements(
  tx: Tx,
  scope: StatementScope,
  side: 'WALLET' | 'CARD',
  after: { id: string } | null,
  limit: number,
): Promise<StatementMovement[]> {
  // in the ledger's own order: a posting's id is taken under its account's lock, so each row's balance
  // follows the one before it (its time is read before the lock, and two at once may carry either order)
  const cursor: SQL = after ? sql` and p.id > ${after.id}::bigint` : sql``;
  const rows = await rowsOf(
    tx.execute(sql`select p.id::text as id, la.kind, p.type, p.amount::text as amount, p.balance_after::text as balance_after,
        p.created_at, t.memo, t.reverses_id is not null as reversal,
        case when la.kind = 'WALLET' then coalesce((select sum(fp.amount) from ledger_postings fp
          join ledger_accounts fa on fa.id = fp.ledger_account_id
          where fp.transaction_id = p.transaction_id and fa.kind = 'MERCHANT_FEE_INCOME'), 0) else 0 end::text as fee,
        la.kind = 'WALLET' and exists (select 1 from ledger_holds h join cards lc on lc.load_hold_id = h.id
          where h.settled_transaction_id = p.transaction_id and h.ledger_account_id = p.ledger_account_id) as first_load,
        c.id::text as card_id, c.last4, c.nickname
      from ledger_accounts la
      join ledger_postings p on p.ledger_account_id = la.id
      join ledger_transactions t on t.id = p.transaction_id
      left join cards c on c.id = ${postingCard} and c.merchant_id = la.merchant_id
      where ${customerAccounts(scope)} and la.kind = ${side}
        and p.created_at >= ${scope.start.toISOString()}::timestamptz and p.created_at < ${scope.end.toISOString()}::timestamptz${cursor}
      order by p.id
      limit ${limit}`),
  );
  return rows.map(movementOf);
}

/**
 * The month's fees by the type of the operation that paid them: what each wallet posting's transaction
 * put on the merchant's fee income (a reversed fee counts back).
 */
export async function statementFees(tx: Tx, scope: StatementScope): Promise<Array<{ type: string; amount: bigint }>> {
  const rows = await rowsOf(
    tx.execute(sql`select p.type, sum(fp.amount)::text as amount
      from ledger_accounts la
      join ledger_postings p on p.ledger_account_id = la.id
      join ledger_postings fp on fp.transaction_id = p.transaction_id
      join ledger_accounts fa on fa.id = fp.ledger_account_id and fa.kind = 'MERCHANT_FEE_INCOME'
      where ${customerAccounts(scope)} and la.kind = 'WALLET'
        and p.created_at >= ${scope.start.toISOString()}::timestamptz and p.created_at < ${scope.end.toISOString()}::timestamptz
      group by p.type
      order by p.type`),
  );
  return rows.map((row) => ({ type: String(row.type), amount: big(row.amount) }));
}
