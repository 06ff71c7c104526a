import { ErrorCode } from '@portal/contract/errors';
import type { Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import type { OperationAnswer, OperationResult } from './requests.ts';
import { claimIdempotencyKey, type EarlierKey, isDatabaseError, readIdempotencyKey, releaseIdempotencyKey } from './idempotency-store.ts';
import { fingerprintOf, replayOf } from '../../lib/keyed-call.ts';

/**
 * The key an operation claims in the statement that locks its accounts (movement.ts), for an operation
 * that reads nothing before it moves: one round trip for both.
 */
export interface KeyClaim {
  merchantId: string;
  key: string;
  requestHash: string;
  /** set once the lock's statement claimed it: without a savepoint, a refusal after it deletes it again */
  claimed?: boolean;
}

/** Thrown by a movement whose key was claimed before (by an earlier request): keyedRun answers that one's result. */
export class KeyTaken extends Error {}

/** The result of a request whose key was seen before: its first answer (same request) or a conflict (another request). */
function earlierResult(earlier: EarlierKey | undefined, key: string, requestHash: string): OperationResult {
  if (!earlier) throw new Error(`idempotency key ${key} conflicted but cannot be read`);
  const first = { fingerprint: earlier.requestHash, answer: { answer: earlier.answer as OperationAnswer, replayed: true } };
  return replayOf(first, requestHash, () => new AppError(ErrorCode.IDEMPOTENCY_CONFLICT, { data: { key } }));
}

/**
 * Runs work under an idempotency key, in the transaction that will store its answer: a key seen
 * before answers its first result (same request) or a conflict (another request). A concurrent
 * request with the same key waits at the claim until the first one commits or rolls back.
 *
 * The key is claimed first, or, with `claimAtLock`, by the work itself where it locks the accounts
 * (`work` gets the claim and throws KeyTaken when the key was there): for an operation that reads
 * nothing before it moves (a transfer, a hold), so the claim costs no round trip of its own. With
 * `savepoint: false` (no savepoint to roll back to) a refusal after the claim deletes it again.
 */
export async function keyedRun(
  tx: Tx,
  merchantId: string,
  key: string,
  fingerprint: unknown,
  work: (claim: KeyClaim | null) => Promise<OperationAnswer>,
  options: { claimAtLock?: boolean; savepoint?: boolean } = {},
): Promise<OperationResult> {
  const requestHash = fingerprintOf(fingerprint);
  if (options.claimAtLock) {
    const claim: KeyClaim = { merchantId, key, requestHash };
    try {
      return { answer: await work(claim), replayed: false };
    } catch (error) {
      if (!(error instanceof KeyTaken)) {
        // no savepoint to roll back to: a refusal (or a retry) after the claim takes the claim back
        if (options.savepoint === false && claim.claimed && !isDatabaseError(error)) await releaseIdempotencyKey(tx, merchantId, key);
        throw error;
      }
    }
    return earlierResult(await readIdempotencyKey(tx, merchantId, key), key, requestHash);
  }
  const claimed = await claimIdempotencyKey(tx, merchantId, key, requestHash);
  if (!claimed) return earlierResult(await readIdempotencyKey(tx, merchantId, key), key, requestHash);
  try {
    return { answer: await work(null), replayed: false };
  } catch (error) {
    if (options.savepoint === false && !isDatabaseError(error)) await releaseIdempotencyKey(tx, merchantId, key);
    throw error;
  }
}
