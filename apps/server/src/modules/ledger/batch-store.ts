import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { big, rowsOf } from '../../db/raw-rows.ts';
import type { HouseKind, LedgerKind } from './accounts.ts';
import type { LockedAccount } from './account-store.ts';

/**
 * The ledger's SQL of many operations written together (batch.ts): their keys claimed in one
 * statement, the merchant's accounts locked in one, and every transaction, posting, balance and answer
 * in one more. Amounts travel as text and are cast in SQL, so no engine ever turns a bigint into a
 * binary float on the way.
 */

const list = (items: SQL[]) => sql.join(items, sql`, `);
/** A column of values as one array parameter: the statement's text stays the same whatever the count (and is kept prepared). */
const column = (values: Array<string | null>) => sql.param(values);

/** Claims the keys (in key order, so two batches never wait on each other's keys crosswise); answers those that were free. */
export async function claimKeys(tx: Tx, merchantId: string, claims: Array<{ key: string; requestHash: string }>) {
  if (claims.length === 0) return new Set<string>();
  const sorted = [...claims].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const rows = await rowsOf(
    tx.execute(sql`insert into ledger_idempotency_keys (merchant_id, key, request_hash)
      select ${merchantId}::uuid, v.key, v.hash from unnest(${column(sorted.map((c) => c.key))}::text[], ${column(sorted.map((c) => c.requestHash))}::text[]) with ordinality as v(key, hash, n)
      order by v.n
      on conflict do nothing returning key`),
  );
  return new Set(rows.map((row) => String(row.key)));
}

/** The first request (its hash) and answer of each of these keys. */
export async function readKeys(tx: Tx, merchantId: string, keys: string[]) {
  if (keys.length === 0) return new Map<string, { requestHash: string; answer: unknown }>();
  const rows = await rowsOf(
    tx.execute(sql`select key, request_hash, answer from ledger_idempotency_keys where merchant_id = ${merchantId} and key = any(${column(keys)}::text[])`),
  );
  return new Map(rows.map((row) => [String(row.key), { requestHash: String(row.request_hash), answer: row.answer as unknown }]));
}

/** Locks the customer's accounts of a batch in id order (the one lock order every operation keeps), with the highest watch of each. */
export async function lockCustomerRows(tx: Tx, merchantId: string, currency: string, keys: Array<{ kind: string; ownerId: string }>): Promise<LockedAccount[]> {
  if (keys.length === 0) return [];
  const rows = await rowsOf(
    tx.execute(sql`select la.id, la.kind, la.owner_id, la.holder_id, la.balance::text as balance, la.held::text as held, la.frozen,
        (select max(w.below) from ledger_watches w where w.holder_id = la.holder_id and w.kind = la.kind
          and (w.owner_id is null or w.owner_id = la.owner_id) and (w.currency is null or w.currency = la.currency))::text as watch_below
      from ledger_accounts la
      join unnest(${column(keys.map((key) => key.kind))}::text[], ${column(keys.map((key) => key.ownerId))}::uuid[]) as v(kind, owner_id)
        on la.kind = v.kind and la.owner_id = v.owner_id
      where la.merchant_id = ${merchantId} and la.currency = ${currency} and la.shard = 0
      order by la.id
      for update of la`),
  );
  return rows.map((row) => ({
    id: String(row.id),
    kind: row.kind as LedgerKind,
    ownerId: String(row.owner_id),
    holderId: String(row.holder_id),
    balance: big(row.balance),
    held: big(row.held),
    frozen: row.frozen === true,
    watchBelow: row.watch_below === null || row.watch_below === undefined ? null : big(row.watch_below),
  }));
}

/** Locks the merchant's own accounts of a batch, in id order (after the customer's, as every operation does); answers their rows. */
export async function lockHouseRows(tx: Tx, merchantId: string, currency: string, accounts: Array<{ kind: HouseKind; shard: number }>) {
  if (accounts.length === 0) return [];
  const rows = await rowsOf(
    tx.execute(sql`select id, kind, shard, balance::text as balance from ledger_accounts
      where merchant_id = ${merchantId} and currency = ${currency} and owner_id = ${merchantId}
        and (kind, shard) in (${list(accounts.map((account) => sql`(${account.kind}, ${account.shard}::smallint)`))})
      order by id for update`),
  );
  return rows.map((row) => ({ id: String(row.id), kind: String(row.kind) as HouseKind, shard: Number(row.shard), balance: big(row.balance) }));
}

export interface BatchWrite {
  merchantId: string;
  currency: string;
  at: Date;
  transactions: Array<{ id: string; type: string; holderId: string | null; reference: string; memo: string }>;
  /** every account moved: its balance after the batch */
  balances: Array<{ id: string; balance: bigint }>;
  /** in the order they happened: each account's postings follow one another by id */
  postings: Array<{ transactionId: string; accountId: string; amount: bigint; balanceAfter: bigint; type: string }>;
  answers: Array<{ key: string; answer: unknown }>;
  /** keys claimed for operations that were refused: taken back */
  released: string[];
  notify: Array<{ channel: string; payload: string }>;
}

/**
 * Writes a batch in one statement: its transactions, postings (numbered in the order they happened, so
 * their ids follow it), balances, answers, the keys it gives back and its notifications.
 */
export async function writeBatch(tx: Tx, plan: BatchWrite) {
  const { merchantId, currency, at, transactions: t, postings: p } = plan;
  await tx.execute(sql`with r as (delete from ledger_idempotency_keys where merchant_id = ${merchantId}::uuid and answer is null
        and key = any(${column(plan.released)}::text[])),
      t as (insert into ledger_transactions (id, merchant_id, currency, type, holder_id, reference, memo, created_at)
        select v.id, ${merchantId}::uuid, ${currency}, v.type, v.holder_id, v.reference, v.memo, ${at.toISOString()}::timestamptz
        from unnest(${column(t.map((x) => x.id))}::uuid[], ${column(t.map((x) => x.type))}::text[], ${column(t.map((x) => x.holderId))}::uuid[],
          ${column(t.map((x) => x.reference))}::text[], ${column(t.map((x) => x.memo))}::text[]) as v(id, type, holder_id, reference, memo)),
      b as (update ledger_accounts la set balance = v.balance
        from unnest(${column(plan.balances.map((x) => x.id))}::uuid[], ${column(plan.balances.map((x) => x.balance.toString()))}::bigint[]) as v(id, balance)
        where la.id = v.id),
      p as (insert into ledger_postings (transaction_id, ledger_account_id, amount, balance_after, type, created_at)
        select v.tid, v.aid, v.amount, v.after, v.type, ${at.toISOString()}::timestamptz
        from unnest(${column(p.map((x) => x.transactionId))}::uuid[], ${column(p.map((x) => x.accountId))}::uuid[], ${column(p.map((x) => x.amount.toString()))}::bigint[],
          ${column(p.map((x) => x.balanceAfter.toString()))}::bigint[], ${column(p.map((x) => x.type))}::text[]) with ordinality as v(tid, aid, amount, after, type, n)
        order by v.n),
      k as (update ledger_idempotency_keys ik set answer = v.answer
        from unnest(${column(plan.answers.map((x) => x.key))}::text[], ${column(plan.answers.map((x) => JSON.stringify(x.answer)))}::jsonb[]) as v(key, answer)
        where ik.merchant_id = ${merchantId}::uuid and ik.key = v.key)
    select count(pg_notify(n.channel, n.payload))::int as notified
    from unnest(${column(plan.notify.map((x) => x.channel))}::text[], ${column(plan.notify.map((x) => x.payload))}::text[]) as n(channel, payload)`);
}
