import type { BatchCreateCardBody } from '@portal/contract/card-batches';

/**
 * What the opening screen needs of batch opening (features/batches), given by the app's route as a
 * hook the form calls: the batch running now, if any, and the call that opens more than one card.
 */
export interface BatchOpening {
  /** the account's running batch: how many of its cards are done, of how many */
  running: { done: number; total: number } | null;
  /** sends the batch; rejects with the refusal or the missing answer */
  open: (request: { body: BatchCreateCardBody; idempotencyKey: string }) => Promise<unknown>;
}

export type UseBatchOpening = () => BatchOpening;
