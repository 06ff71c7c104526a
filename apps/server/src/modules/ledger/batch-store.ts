import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { big, rowsOf } from '../../db/raw-rows.ts';
import type { HouseKind } from './accounts.ts';

/**
 * The ledger's SQL of many operations written together (batch.ts): their keys claimed in one
 * statement, the merchant's accounts locked in one, and every transaction, posting, balance and answer
 * in one more. Amounts travel as text and are cast in SQL, so no engine ever turns a bigint into a
 * binary float on the way.
 */

const list = (items: SQL[]) => sql.join(items, sql`, `);

/** Claims the keys (in key order, so two batches never wait on each other's keys crosswise); answers those that were free. */
export async function claimKeys(tx: Tx, merchantId: string, claims: Array<{ key: string; requestHash: string }>) {
  if (claims.length === 0) return new Set<string>();
  const sorted = [...claims].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const rows = await rowsOf(
    tx.execute(sql`insert into ledger_idempotency_keys (merchant_id, key, request_hash)
      select ${merchantId}::uuid, v.key, v.hash from (values ${list(sorted.map((c, n) => sql`(${n}::int, ${c.key}, ${c.requestHash})`))}) as v(n, key, hash)
      order by v.n
      on conflict do nothing returning key`),
  );
  return new Set(rows.map((row) => String(row.key)));
}

/** The first request (its hash) and answer of each of these keys. */
export async function readKeys(tx: Tx, merchantId: string, keys: string[]) {
  if (keys.length === 0) return new Map<string, { requestHash: string; answer: unknown }>();
  const rows = await rowsOf(
    tx.execute(sql`select key, request_hash, answer from ledger_idempotency_keys where merchant_id = ${merchantId} and key in (${list(keys.map((key) => sql`${key}`))})`),
  );
  return new Map(rows.map((row) => [String(row.key), { requestHash: String(row.request_hash), answer: row.answer as unknown }]));
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

/** Writes a batch in one statement: its transactions, postings, balances, answers, the keys it gives back and its notifications. */
export async function writeBatch(tx: Tx, plan: BatchWrite) {
  const { merchantId, currency, at } = plan;
  const parts: SQL[] = [];
  if (plan.released.length) {
    parts.push(sql`r as (delete from ledger_idempotency_keys where merchant_id = ${merchantId}::uuid and answer is null
      and key in (${list(plan.released.map((key) => sql`${key}`))}))`);
  }
  if (plan.transactions.length) {
    parts.push(sql`t as (insert into ledger_transactions (id, merchant_id, currency, type, holder_id, reference, memo, created_at)
      select v.id, ${merchantId}::uuid, ${currency}, v.type, v.holder_id, v.reference, v.memo, ${at}::timestamptz
      from (values ${list(plan.transactions.map((t) => sql`(${t.id}::uuid, ${t.type}, ${t.holderId}::uuid, ${t.reference}, ${t.memo})`))}) as v(id, type, holder_id, reference, memo))`);
  }
  if (plan.balances.length) {
    parts.push(sql`b as (update ledger_accounts la set balance = v.balance
      from (values ${list(plan.balances.map((b) => sql`(${b.id}::uuid, ${b.balance.toString()}::bigint)`))}) as v(id, balance) where la.id = v.id)`);
  }
  if (plan.postings.length) {
    // the transactions first (a posting's key reaches its transaction), then the postings in the order they happened
    parts.push(sql`p as (insert into ledger_postings (transaction_id, ledger_account_id, amount, balance_after, type, created_at)
      select v.tid, v.aid, v.amount, v.after, v.type, ${at}::timestamptz
      from (values ${list(plan.postings.map((p, n) => sql`(${n}::int, ${p.transactionId}::uuid, ${p.accountId}::uuid, ${p.amount.toString()}::bigint, ${p.balanceAfter.toString()}::bigint, ${p.type})`))}) as v(n, tid, aid, amount, after, type)
      order by v.n)`);
  }
  if (plan.answers.length) {
    parts.push(sql`k as (update ledger_idempotency_keys ik set answer = v.answer::jsonb
      from (values ${list(plan.answers.map((a) => sql`(${a.key}, ${JSON.stringify(a.answer)})`))}) as v(key, answer)
      where ik.merchant_id = ${merchantId}::uuid and ik.key = v.key)`);
  }
  const notify = plan.notify.length ? list(plan.notify.map((n) => sql`pg_notify(${n.channel}, ${n.payload})::text`)) : sql`null`;
  if (parts.length === 0) return;
  await tx.execute(sql`with ${list(parts)} select ${notify}`);
}
