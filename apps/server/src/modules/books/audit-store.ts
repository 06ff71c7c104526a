import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { BALANCE_STATUS_AVAILABLE, } from '@portal/contract/enums';
import { type Row, rowsOf } from '../../db/raw-rows.ts';
import { customerKindsSql } from './customer-kinds.ts';

/**
 * The ledger's audit: every invariant of the books, checked in SQL. Amounts travel as text and are
 * cast in SQL, so no engine ever turns a bigint into a binary float on the way.
 */

export interface Violation {
  rule: string;
  detail: string;
}

/** Each query answers the rows that break one rule; none answers anything on sound books. */
const auditQueries: Array<{ rule: string; query: SQL; detail: (row: Row) => string }> = [
  {
    rule: 'every currency sums to zero',
    query: sql`select merchant_id, currency, sum(balance)::text as total from ledger_accounts group by merchant_id, currency having sum(balance) <> 0`,
    detail: (r) => `merchant ${r.merchant_id} ${r.currency}: accounts sum to ${r.total}`,
  },
  {
    rule: 'each balance equals the sum of its postings',
    query: sql`select la.id, la.balance::text as balance, coalesce(p.total, 0)::text as total
      from ledger_accounts la left join (select ledger_account_id, sum(amount) as total from ledger_postings group by ledger_account_id) p
        on p.ledger_account_id = la.id
      where la.balance <> coalesce(p.total, 0)`,
    detail: (r) => `account ${r.id}: balance ${r.balance}, postings ${r.total}`,
  },
  {
    rule: "each account's last posting shows its balance",
    query: sql`select la.id, la.balance::text as balance, last.balance_after::text as after
      from ledger_accounts la join (
        select distinct on (ledger_account_id) ledger_account_id, balance_after from ledger_postings order by ledger_account_id, id desc
      ) last on last.ledger_account_id = la.id
      where last.balance_after <> la.balance`,
    detail: (r) => `account ${r.id}: balance ${r.balance}, last balance_after ${r.after}`,
  },
  {
    rule: 'each posting follows the one before it',
    query: sql`select id, ledger_account_id from (
        select id, ledger_account_id, balance_after, amount,
               lag(balance_after, 1, 0::bigint) over (partition by ledger_account_id order by id) as before
        from ledger_postings) s
      where before + amount <> balance_after`,
    detail: (r) => `posting ${r.id} on account ${r.ledger_account_id} does not continue the balance before it`,
  },
  {
    rule: "no customer's balance or hold is negative",
    query: sql`select id, kind, balance::text as balance, held::text as held from ledger_accounts
      where held < 0 or (kind in (${customerKindsSql}) and balance - held < 0)`,
    detail: (r) => `${r.kind} account ${r.id}: balance ${r.balance}, held ${r.held}`,
  },
  {
    rule: 'held equals the sum of the active holds',
    query: sql`select la.id, la.held::text as held, coalesce(h.total, 0)::text as total
      from ledger_accounts la left join (
        select ledger_account_id, sum(amount) as total from ledger_holds where status = 'ACTIVE' group by ledger_account_id
      ) h on h.ledger_account_id = la.id
      where la.held <> coalesce(h.total, 0)`,
    detail: (r) => `account ${r.id}: held ${r.held}, active holds ${r.total}`,
  },
  {
    rule: 'every transaction balances, in its own currency',
    query: sql`select t.id, coalesce(sum(p.amount), 0)::text as total, count(p.id)::int as lines,
             bool_and(la.currency = t.currency) as same_currency
      from ledger_transactions t
      left join ledger_postings p on p.transaction_id = t.id
      left join ledger_accounts la on la.id = p.ledger_account_id
      group by t.id
      having coalesce(sum(p.amount), 0) <> 0 or count(p.id) < 2 or not bool_and(la.currency = t.currency)`,
    detail: (r) => `transaction ${r.id}: ${r.lines} postings summing to ${r.total}${r.same_currency === false ? ', in another currency' : ''}`,
  },
  {
    rule: "a wallet's ledger accounts are frozen exactly when the wallet is",
    query: sql`select la.id, la.frozen, coalesce(w.status, ${BALANCE_STATUS_AVAILABLE}) as status
      from ledger_accounts la left join wallets w on w.account_id = la.owner_id and w.merchant_id = la.merchant_id
      where (la.kind = 'WALLET' and la.frozen <> (coalesce(w.status, ${BALANCE_STATUS_AVAILABLE}) <> ${BALANCE_STATUS_AVAILABLE}))
         or (la.kind <> 'WALLET' and la.frozen)`,
    detail: (r) => `account ${r.id}: frozen ${r.frozen}, wallet ${r.status}`,
  },
  {
    rule: 'a settled hold is settled once, a posted one by a transaction',
    query: sql`select id, status from ledger_holds
      where status not in ('ACTIVE', 'POSTED', 'RELEASED')
         or (status = 'ACTIVE') <> (settled_at is null)
         or (status = 'POSTED') <> (settled_transaction_id is not null)`,
    detail: (r) => `hold ${r.id}: status ${r.status} does not match how it was settled`,
  },
];

export async function auditViolations(tx: Tx): Promise<Violation[]> {
  const violations: Violation[] = [];
  for (const check of auditQueries) {
    for (const row of await rowsOf(tx.execute(check.query))) violations.push({ rule: check.rule, detail: check.detail(row) });
  }
  return violations;
}

export const auditRules = auditQueries.map((check) => check.rule);

/** How much the audit looked at. */
export async function ledgerSize(tx: Tx) {
  const [row] = await rowsOf(
    tx.execute(sql`select (select count(*) from ledger_accounts)::int as accounts, (select count(*) from ledger_transactions)::int as transactions,
      (select count(*) from ledger_postings)::int as postings, (select count(*) from ledger_holds)::int as holds`),
  );
  return { accounts: Number(row?.accounts), transactions: Number(row?.transactions), postings: Number(row?.postings), holds: Number(row?.holds) };
}
