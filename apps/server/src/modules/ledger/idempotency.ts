import { ErrorCode } from '@portal/contract/errors';
import type { Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import { sha256 } from '../../lib/crypto.ts';
import type { OperationAnswer, OperationResult } from './requests.ts';
import { claimIdempotencyKey } from './store.ts';

/** The hash a key keeps of its request's fingerprint (bigints as their decimal text). */
export const requestHashOf = (fingerprint: unknown) =>
  sha256(JSON.stringify(fingerprint, (_key, value) => (typeof value === 'bigint' ? value.toString() : value)));

/**
 * Runs work under an idempotency key, in the transaction that will store its answer: a key seen
 * before answers its first result (same request) or a conflict (another request). A concurrent
 * request with the same key waits here until the first one commits or rolls back.
 */
export async function keyedRun(
  tx: Tx,
  merchantId: string,
  key: string,
  fingerprint: unknown,
  work: () => Promise<OperationAnswer>,
): Promise<OperationResult> {
  const requestHash = requestHashOf(fingerprint);
  const earlier = await claimIdempotencyKey(tx, merchantId, key, requestHash);
  if (earlier) {
    if (earlier.requestHash !== requestHash) throw new AppError(ErrorCode.IDEMPOTENCY_CONFLICT, { data: { key } });
    return { answer: earlier.answer as OperationAnswer, replayed: true };
  }
  return { answer: await work(), replayed: false };
}
