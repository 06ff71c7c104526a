import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import type { HouseKind, } from './accounts.ts';
import { rowsOf } from '../../db/raw-rows.ts';

/**
 * The ledger's SQL of one operation written whole: its transaction, postings, holds and balances.
 * Amounts travel as text and are cast in SQL, so no engine ever turns a bigint into a binary float on
 * the way.
 */

export interface WritePlan {
  merchantId: string;
  currency: string;
  at: Date;
  transaction?: {
    id: string;
    type: string;
    holderId: string | null;
    reference: string;
    memo: string;
    reversesId: string | null;
  };
  /** the customer's accounts: their new balance and held, and the posting to each (0n: none) */
  customer: Array<{ id: string; balance: bigint; held: bigint; posting: bigint }>;
  /** the merchant's accounts: what is added to each (their rows are locked here, last, and briefly) */
  house: Array<{ kind: HouseKind; shard: number; delta: bigint }>;
  holdInserts: Array<{ id: string; ledgerAccountId: string; holderId: string; amount: bigint; reference: string }>;
  holdSettle?: { id: string; status: 'POSTED' | 'RELEASED' };
  idempotency: { key: string; answer: unknown };
  /** a NOTIFY the statement sends as well (movement.ts Announce), or null */
  notify?: { channel: string; payload: string } | null;
}

/**
 * Writes a whole operation in one statement: the transaction, its postings, the new balances, the
 * hold and the idempotency answer. Answers how many of the merchant's accounts it found. The merchant's accounts are updated by adding to them in this
 * last statement, so their (hot) row locks are held only until the commit right after.
 */
export async function writeOperation(tx: Tx, plan: WritePlan) {
  const parts: SQL[] = [];
  const { merchantId, currency, at } = plan;
  const t = plan.transaction;
  if (t) {
    parts.push(sql`t as (insert into ledger_transactions (id, merchant_id, currency, type, holder_id, reference, memo, reverses_id, created_at)
      values (${t.id}::uuid, ${merchantId}::uuid, ${currency}, ${t.type}, ${t.holderId}::uuid, ${t.reference}, ${t.memo}, ${t.reversesId}::uuid, ${at}))`);
  }
  if (plan.customer.length) {
    const values = sql.join(
      plan.customer.map((c) => sql`(${c.id}::uuid, ${c.balance.toString()}::bigint, ${c.held.toString()}::bigint)`),
      sql`, `,
    );
    parts.push(sql`c as (update ledger_accounts la set balance = v.balance, held = v.held
      from (values ${values}) as v(id, balance, held) where la.id = v.id)`);
  }
  if (plan.house.length) {
    if (!t) throw new Error('the merchant accounts move only within a transaction');
    const values = sql.join(
      plan.house.map((h) => sql`(${h.kind}, ${h.shard}::smallint, ${h.delta.toString()}::bigint)`),
      sql`, `,
    );
    parts.push(sql`h as (update ledger_accounts la set balance = la.balance + v.delta
      from (values ${values}) as v(kind, shard, delta)
      where la.merchant_id = ${merchantId} and la.currency = ${currency} and la.owner_id = ${merchantId} and la.kind = v.kind
        and la.shard = v.shard
      returning la.id, la.balance, v.delta)`);
  }
  const customerPostings = plan.customer.filter((c) => c.posting !== 0n);
  if (t && (customerPostings.length || plan.house.length)) {
    const selects: SQL[] = [];
    if (plan.house.length) selects.push(sql`select id, delta, balance from h`);
    if (customerPostings.length) {
      const values = sql.join(
        customerPostings.map((c) => sql`(${c.id}::uuid, ${c.posting.toString()}::bigint, ${c.balance.toString()}::bigint)`),
        sql`, `,
      );
      selects.push(sql`select * from (values ${values}) as v(id, delta, balance)`);
    }
    parts.push(sql`p as (insert into ledger_postings (transaction_id, ledger_account_id, amount, balance_after, type, created_at)
      select ${t.id}::uuid, x.id, x.delta, x.balance, ${t.type}, ${at} from (${sql.join(selects, sql` union all `)}) as x)`);
  }
  if (plan.holdInserts.length) {
    const values = sql.join(
      plan.holdInserts.map(
        (hold) =>
          sql`(${hold.id}::uuid, ${merchantId}::uuid, ${hold.ledgerAccountId}::uuid, ${hold.holderId}::uuid, ${currency}, ${hold.amount.toString()}::bigint, ${hold.reference}, ${at}::timestamptz)`,
      ),
      sql`, `,
    );
    parts.push(sql`hi as (insert into ledger_holds (id, merchant_id, ledger_account_id, holder_id, currency, amount, reference, created_at)
      values ${values})`);
  }
  if (plan.holdSettle) {
    const settle = plan.holdSettle;
    parts.push(sql`hs as (update ledger_holds set status = ${settle.status}, settled_at = ${at}, settled_transaction_id = ${t ? t.id : null}::uuid
      where id = ${settle.id}::uuid and status = 'ACTIVE')`);
  }
  parts.push(sql`k as (update ledger_idempotency_keys set answer = ${JSON.stringify(plan.idempotency.answer)}::jsonb
    where merchant_id = ${merchantId}::uuid and key = ${plan.idempotency.key})`);
  const houseCount = plan.house.length ? sql`(select count(*) from h)::int` : sql`0`;
  const notify = plan.notify ? sql`, pg_notify(${plan.notify.channel}, ${plan.notify.payload})::text as notified` : sql``;
  const [result] = await rowsOf(tx.execute(sql`with ${sql.join(parts, sql`, `)} select ${houseCount} as house_rows${notify}`));
  // fewer than asked for means a merchant account does not exist yet: the caller must roll back
  return { houseRows: Number(result?.house_rows ?? 0) };
}

/** Whether a database error (or one it wraps) has this SQLSTATE. */
export function hasCode(error: unknown, code: string): boolean {
  for (let at = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; at && depth < 5; depth++) {
    if (at.code === code) return true;
    at = at.cause as typeof at;
  }
  return false;
}
