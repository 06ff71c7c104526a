import { randomUUID } from 'node:crypto';
import type { Currency } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import { fromMinorUnits } from '@portal/contract/money';
import type { Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { type AccountRef, cardAccountOf, walletOf } from './accounts.ts';
import { keyedRun } from './idempotency.ts';
import { move, type Step } from './movement.ts';
import { amountMoved, checkedReversal, type Line, type OperationResult, type ReverseRequest } from './requests.ts';
import { findReversal, lockTransaction, postingsOf } from './hold-store.ts';

/**
 * A reversal: a correction is a new transaction that posts the opposite of each posting of the one
 * it corrects, to the same accounts (the merchant's in the same shard), at most once per
 * transaction. Written inside the given transaction.
 */
export async function reverseWithin(tx: Tx, clock: Clock, request: ReverseRequest, step: Step): Promise<OperationResult> {
  const { memo, fingerprint } = checkedReversal(request);
  return keyedRun(tx, request.merchantId, request.key, fingerprint, async () => {
    const original = await lockTransaction(tx, request.merchantId, request.transactionId);
    if (!original) throw new AppError(ErrorCode.LEDGER_TRANSACTION_NOT_FOUND);
    if (original.reversesId !== null || (await findReversal(tx, original.id)) !== null) throw new AppError(ErrorCode.ALREADY_REVERSED);
    const lines: Line[] = (await postingsOf(tx, original.id)).map((posting) => {
      const account: AccountRef =
        posting.kind === 'WALLET'
          ? walletOf(posting.ownerId)
          : posting.kind === 'CARD'
            ? cardAccountOf(posting.ownerId, posting.holderId as string)
            : ({ kind: posting.kind, shard: posting.shard } as AccountRef);
      return { account, amount: -posting.amount };
    });
    const transactionId = randomUUID();
    return move(
      tx,
      {
        merchantId: request.merchantId,
        currency: original.currency as Currency,
        at: clock.now(),
        lines,
        heldChanges: [],
        transaction: {
          id: transactionId,
          type: original.type,
          holderId: original.holderId,
          reference: original.reference,
          memo: memo || '冲正',
          reversesId: original.id,
        },
        key: request.key,
        answer: { operation: 'reverse', transactionId, holdId: null, type: original.type, amount: fromMinorUnits(amountMoved(lines)) },
      },
      step,
    );
  }, { savepoint: step.savepoint !== false });
}
