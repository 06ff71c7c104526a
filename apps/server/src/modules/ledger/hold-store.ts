import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import type { LedgerKind } from './accounts.ts';
import { big, type Row, rowsOf } from '../../db/raw-rows.ts';

/**
 * The ledger's SQL of holds and transactions, read and locked for posting, releasing and reversing.
 * Amounts travel as text and are cast in SQL, so no engine ever turns a bigint into a binary float on
 * the way.
 */

export interface HoldRow {
  id: string;
  ledgerAccountId: string;
  holderId: string;
  currency: string;
  amount: bigint;
  status: string;
  reference: string;
  accountKind: LedgerKind;
  accountOwnerId: string;
}

/** Locks a hold of the merchant: of two that settle it at once, the second sees the first's result. */
export async function lockHold(tx: Tx, merchantId: string, holdId: string): Promise<HoldRow | undefined> {
  const [row] = await rowsOf(
    tx.execute(sql`
      select h.id, h.ledger_account_id, h.holder_id, h.currency, h.amount::text as amount, h.status, h.reference,
             la.kind, la.owner_id
      from ledger_holds h join ledger_accounts la on la.id = h.ledger_account_id
      where h.id = ${holdId} and h.merchant_id = ${merchantId}
      for update of h`),
  );
  if (!row) return undefined;
  return {
    id: String(row.id),
    ledgerAccountId: String(row.ledger_account_id),
    holderId: String(row.holder_id),
    currency: String(row.currency),
    amount: big(row.amount),
    status: String(row.status),
    reference: String(row.reference),
    accountKind: row.kind as LedgerKind,
    accountOwnerId: String(row.owner_id),
  };
}

export interface TransactionRow {
  id: string;
  currency: string;
  type: string;
  holderId: string | null;
  reference: string;
  memo: string;
  reversesId: string | null;
  createdAt: Date;
}

const transactionOf = (row: Row): TransactionRow => ({
  id: String(row.id),
  currency: String(row.currency),
  type: String(row.type),
  holderId: row.holder_id === null ? null : String(row.holder_id),
  reference: String(row.reference),
  memo: String(row.memo),
  reversesId: row.reverses_id === null ? null : String(row.reverses_id),
  createdAt: new Date(row.created_at as string | Date),
});

/** Locks a transaction of the merchant against a second reversal at the same moment. */
export async function lockTransaction(tx: Tx, merchantId: string, id: string) {
  const [row] = await rowsOf(
    tx.execute(sql`select id, currency, type, holder_id, reference, memo, reverses_id, created_at
      from ledger_transactions where id = ${id} and merchant_id = ${merchantId} for update`),
  );
  return row ? transactionOf(row) : undefined;
}

export async function findReversal(tx: Tx, transactionId: string) {
  const [row] = await rowsOf(tx.execute(sql`select id from ledger_transactions where reverses_id = ${transactionId}`));
  return row ? String(row.id) : null;
}

/** The postings of a transaction with the account each went to. */
export async function postingsOf(tx: Tx, transactionId: string) {
  const rows = await rowsOf(
    tx.execute(sql`select p.amount::text as amount, la.kind, la.owner_id, la.holder_id, la.shard
      from ledger_postings p join ledger_accounts la on la.id = p.ledger_account_id
      where p.transaction_id = ${transactionId} order by p.id`),
  );
  return rows.map((row) => ({
    amount: big(row.amount),
    kind: row.kind as LedgerKind,
    ownerId: String(row.owner_id),
    holderId: row.holder_id === null ? null : String(row.holder_id),
    shard: Number(row.shard),
  }));
}
