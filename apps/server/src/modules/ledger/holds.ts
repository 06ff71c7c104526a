import { randomUUID } from 'node:crypto';
import type { Currency } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import { fromMinorUnits } from '@portal/contract/money';
import type { Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { type AccountRef, cardAccountOf, type LedgerKind, walletOf } from './accounts.ts';
import { keyedRun } from './idempotency.ts';
import { move, type Step } from './movement.ts';
import {
  checkedHold,
  checkedPostHold,
  checkedRelease,
  type HoldRequest,
  mergeLines,
  type OperationResult,
  type PostHoldRequest,
  type ReleaseHoldRequest,
} from './requests.ts';
import { lockHold } from './hold-store.ts';

/**
 * Holds: money moved from available to held for an operation in flight, settled exactly once,
 * posted (to where the caller names) or released (back to available). Each is written inside the
 * given transaction.
 */

export async function holdWithin(tx: Tx, clock: Clock, request: HoldRequest, step: Step): Promise<OperationResult> {
  const { reference, parts, fingerprint } = checkedHold(request);
  return keyedRun(
    tx,
    request.merchantId,
    request.key,
    fingerprint,
    (claim) => {
    const account = request.account ?? walletOf(request.accountId);
    const holds = parts.map((amount) => ({ id: randomUUID(), account, amount, reference }));
    const holdIds = holds.map((hold) => hold.id);
    return move(
      tx,
      {
        merchantId: request.merchantId,
        currency: request.currency,
        at: clock.now(),
        lines: [],
        heldChanges: [],
        holdInserts: holds,
        transaction: undefined,
        key: request.key,
        claim,
        answer: {
          operation: 'hold',
          transactionId: null,
          holdId: holdIds[0] as string,
          ...(request.parts ? { holdIds } : {}),
          type: null,
          amount: fromMinorUnits(request.amount),
        },
      },
      step,
    );
    },
    { claimAtLock: true, savepoint: step.savepoint !== false },
  );
}

/** The account a hold is on, named as the ledger names accounts. */
function holdAccountRef(hold: { accountKind: LedgerKind; accountOwnerId: string; holderId: string }): AccountRef {
  if (hold.accountKind === 'CARD') return cardAccountOf(hold.accountOwnerId, hold.holderId);
  return walletOf(hold.holderId);
}

/** Locks the hold; refused when there is none or it was settled already. */
async function lockActiveHold(tx: Tx, merchantId: string, holdId: string) {
  const hold = await lockHold(tx, merchantId, holdId);
  if (!hold) throw new AppError(ErrorCode.HOLD_NOT_FOUND);
  if (hold.status !== 'ACTIVE') throw new AppError(ErrorCode.HOLD_SETTLED, { data: { status: hold.status } });
  return hold;
}

export async function postHoldWithin(tx: Tx, clock: Clock, request: PostHoldRequest, step: Step): Promise<OperationResult> {
  const { reference, memo, fingerprint } = checkedPostHold(request);
  return keyedRun(tx, request.merchantId, request.key, fingerprint, async () => {
    const hold = await lockActiveHold(tx, request.merchantId, request.holdId);
    const source = holdAccountRef(hold);
    const posted = request.to.reduce((total, target) => total + target.amount, 0n);
    if (posted > hold.amount) throw new RangeError(`ledger: posting ${posted} from a hold of ${hold.amount}`);
    const lines = mergeLines(request.merchantId, request.type, [{ account: source, amount: -posted }, ...request.to]);
    const transactionId = randomUUID();
    return move(
      tx,
      {
        merchantId: request.merchantId,
        currency: hold.currency as Currency,
        at: clock.now(),
        lines,
        heldChanges: [{ account: source, amount: -hold.amount }],
        transaction: { id: transactionId, type: request.type, holderId: hold.holderId, reference: reference || hold.reference, memo, reversesId: null },
        holdSettle: { id: hold.id, status: 'POSTED' },
        key: request.key,
        answer: { operation: 'post-hold', transactionId, holdId: hold.id, type: request.type, amount: fromMinorUnits(posted) },
      },
      step,
    );
  }, { savepoint: step.savepoint !== false });
}

export async function releaseHoldWithin(tx: Tx, clock: Clock, request: ReleaseHoldRequest, step: Step): Promise<OperationResult> {
  const { fingerprint } = checkedRelease(request);
  return keyedRun(tx, request.merchantId, request.key, fingerprint, async () => {
    const hold = await lockActiveHold(tx, request.merchantId, request.holdId);
    const source = holdAccountRef(hold);
    return move(
      tx,
      {
        merchantId: request.merchantId,
        currency: hold.currency as Currency,
        at: clock.now(),
        lines: [],
        heldChanges: [{ account: source, amount: -hold.amount }],
        transaction: undefined,
        holdSettle: { id: hold.id, status: 'RELEASED' },
        key: request.key,
        answer: { operation: 'release-hold', transactionId: null, holdId: hold.id, type: null, amount: fromMinorUnits(hold.amount) },
      },
      step,
    );
  }, { savepoint: step.savepoint !== false });
}
