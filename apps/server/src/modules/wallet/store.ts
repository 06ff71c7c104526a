import { BALANCE_STATUS_AVAILABLE, BALANCE_STATUS_FROZEN } from '@portal/contract/enums';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';

/** The wallet's status row (its money is the ledger's: modules/ledger). */

type Row = Record<string, unknown>;
/** The rows of a raw query (both engines answer `{ rows }`). */
const rowsOf = async (result: PromiseLike<unknown>) => ((await result) as { rows: Row[] }).rows;

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
