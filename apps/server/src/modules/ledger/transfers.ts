import { randomUUID } from 'node:crypto';
import { fromMinorUnits } from '@portal/contract/money';
import type { Tx } from '../../db/engine.ts';
import type { Clock } from '../../lib/clock.ts';
import { keyedRun } from './idempotency.ts';
import { move, type Step } from './movement.ts';
import { checkedTransfer, type OperationResult, type TransferRequest } from './requests.ts';

/** A transfer (any balanced set of lines) written inside the given transaction. */
export async function transferWithin(tx: Tx, clock: Clock, request: TransferRequest, step: Step): Promise<OperationResult> {
  const { lines, reference, memo, holderId, amount, fingerprint } = checkedTransfer(request);
  return keyedRun(
    tx,
    request.merchantId,
    request.key,
    fingerprint,
    (claim) => {
    const transactionId = randomUUID();
    return move(
      tx,
      {
        merchantId: request.merchantId,
        currency: request.currency,
        at: clock.now(),
        lines,
        heldChanges: [],
        transaction: { id: transactionId, type: request.type, holderId, reference, memo, reversesId: null },
        key: request.key,
        claim,
        answer: { operation: 'transfer', transactionId, holdId: null, type: request.type, amount: fromMinorUnits(amount) },
      },
      step,
    );
    },
    { claimAtLock: true, savepoint: step.savepoint !== false },
  );
}
