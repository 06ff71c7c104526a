import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { ledgerIdempotencyKeys } from '../../db/schema.ts';
import { rowsOf } from '../../db/raw-rows.ts';

/**
 * The ledger's SQL of idempotency keys: claimed in the operation's transaction, read for a replay.
 * Amounts travel as text and are cast in SQL, so no engine ever turns a bigint into a binary float on
 * the way.
 */

/**
 * Claims a key for this transaction. Null: it is ours now. Otherwise the earlier request that holds
 * it (a concurrent one with the same key waits here until that one commits or rolls back).
 */
/** Claims a key for a request; false when the key was there (claimed by an earlier request). */
export async function claimIdempotencyKey(tx: Tx, merchantId: string, key: string, requestHash: string) {
  const inserted = await tx
    .insert(ledgerIdempotencyKeys)
    .values({ merchantId, key, requestHash })
    .onConflictDoNothing()
    .returning({ key: ledgerIdempotencyKeys.key });
  return inserted.length === 1;
}

/** Takes back a key claimed by a request that was then refused (one that has no answer yet). */
export async function releaseIdempotencyKey(tx: Tx, merchantId: string, key: string) {
  await tx.execute(sql`delete from ledger_idempotency_keys where merchant_id = ${merchantId} and key = ${key} and answer is null`);
}

/** Whether an error is the database's (a statement failed): after it, a transaction without a savepoint takes no statement. */
export function isDatabaseError(error: unknown): boolean {
  for (let at = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; at && depth < 5; depth++) {
    if (typeof at.code === 'string' && /^[0-9A-Z]{5}$/.test(at.code)) return true;
    at = at.cause as typeof at;
  }
  return false;
}

export interface EarlierKey {
  requestHash: string;
  answer: unknown;
}

/** A key's first request (its hash) and answer. */
export async function readIdempotencyKey(tx: Tx, merchantId: string, key: string): Promise<EarlierKey | undefined> {
  const [found] = await rowsOf(
    tx.execute(sql`select request_hash, answer from ledger_idempotency_keys where merchant_id = ${merchantId} and key = ${key}`),
  );
  return found ? { requestHash: String(found.request_hash), answer: found.answer as unknown } : undefined;
}
