import { BATCH_STATUSES, type BatchStatusAnswer } from '@portal/contract/card-batches';
import { EVENT_TYPES } from '@portal/contract/events';
import type { StreamEvent } from '@portal/contract/messages';
import type { QueryClient } from '@tanstack/react-query';
import { refreshAroundCard } from '../../../domain/cards/api/card-cache.ts';
import { cardAnswers, cardKeys } from '../../../domain/cards/api/card-keys.ts';

/** The events of batches and exports: no station messages, the widget and the export page show them. */
export const isBatchOrExportEvent = (event: StreamEvent) => event.type === EVENT_TYPES.batchProgress || event.type === EVENT_TYPES.exportProgress;

/**
 * BATCH_PROGRESS moves the batch widget and reads again the cards it opened; EXPORT_PROGRESS reads
 * the exports again. Answers whether the event was one of these.
 */
export function applyBatchEvent(queryClient: QueryClient, event: StreamEvent): boolean {
  if (event.type === EVENT_TYPES.batchProgress) applyBatchProgress(queryClient, event);
  else if (event.type === EVENT_TYPES.exportProgress) void queryClient.invalidateQueries(cardAnswers.exports());
  else return false;
  return true;
}

const count = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null);

/**
 * BATCH_PROGRESS: the batch's figures move the widget at once (the status call answers the same
 * figures, so they are written into its cache); the cards it opened and the wallet are read again.
 * Figures of another batch than the one shown, or that are not whole, make the status be asked again.
 */
function applyBatchProgress(queryClient: QueryClient, event: StreamEvent) {
  const payload = event as StreamEvent & Record<string, unknown>;
  const success = count(payload.success_count);
  const fail = count(payload.fail_count);
  const total = count(payload.total_count);
  const status = BATCH_STATUSES.find((candidate) => candidate === payload.status) ?? null;
  const batchId = typeof payload.batch_id === 'string' ? payload.batch_id : null;
  const current = queryClient.getQueryData<BatchStatusAnswer>(cardKeys.batchStatus());
  if (current && batchId && current.batch_id === batchId && success !== null && fail !== null && total !== null && status) {
    // never backwards: a late event of an earlier moment leaves the newer figures
    if (success + fail >= current.success_count + current.fail_count) {
      queryClient.setQueryData<BatchStatusAnswer>(cardKeys.batchStatus(), {
        ...current,
        success_count: success,
        fail_count: fail,
        total_count: total,
        status,
        exist: status === 'RUNNING',
        message_id: typeof payload.message_id === 'string' ? payload.message_id : current.message_id,
      });
    }
    if (status !== 'RUNNING') void queryClient.invalidateQueries({ queryKey: cardKeys.batchStatus() });
  } else void queryClient.invalidateQueries({ queryKey: cardKeys.batchStatus() });
  refreshAroundCard(queryClient, null);
}
