import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { big, rowsOf } from '../../db/raw-rows.ts';

/** The member's role and monthly budget (minor units; null: none), or undefined for no such member. */
export async function memberBudgetOf(tx: Tx, memberId: string) {
  const [row] = await rowsOf(tx.execute(sql`select role, monthly_budget::text as budget from members where id = ${memberId}::uuid`));
  if (!row) return undefined;
  return { role: String(row.role), budget: row.budget === null ? null : big(row.budget) };
}

/**
 * Adds `amount` to what the member used in `month`, in one statement, only while the sum stays within
 * `budget`: answers the new sum, or undefined (nothing written) when it would go past. Two calls at once
 * meet on the row (member_id, month): the second waits for the first and checks the sum it left.
 */
export async function addUsageWithin(tx: Tx, memberId: string, month: string, amount: bigint, budget: bigint) {
  const [row] = await rowsOf(
    tx.execute(sql`insert into budget_usage (member_id, month, used)
      select ${memberId}::uuid, ${month}, ${amount.toString()}::bigint where ${amount.toString()}::bigint <= ${budget.toString()}::bigint
      on conflict (member_id, month) do update set used = budget_usage.used + excluded.used
        where budget_usage.used + excluded.used <= ${budget.toString()}::bigint
      returning used::text as used`),
  );
  return row ? big(row.used) : undefined;
}

/** What the member used in `month` (0 when nothing). */
export async function usageOf(tx: Tx, memberId: string, month: string) {
  const [row] = await rowsOf(tx.execute(sql`select used::text as used from budget_usage where member_id = ${memberId}::uuid and month = ${month}`));
  return row ? big(row.used) : 0n;
}

/** Takes `amount` off what the member used in `month`, never below nothing. */
export async function reduceUsage(tx: Tx, memberId: string, month: string, amount: bigint) {
  await tx.execute(
    sql`update budget_usage set used = greatest(used - ${amount.toString()}::bigint, 0) where member_id = ${memberId}::uuid and month = ${month}`,
  );
}
