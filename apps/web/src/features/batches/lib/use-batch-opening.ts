import { useCreateCardBatch } from '../api/create-card-batch.ts';
import { isBatchRunning, useBatchStatus } from '../api/get-batch-status.ts';

/** Batch opening as the opening screen uses it: the batch running now, and the call that starts one. */
export function useBatchOpening() {
  const batching = useCreateCardBatch();
  const status = useBatchStatus();
  const running = status.data && isBatchRunning(status.data) ? status.data : null;
  return {
    running: running ? { done: running.success_count + running.fail_count, total: running.total_count } : null,
    open: batching.mutateAsync,
  };
}
