import { BULK_STATUSES, type BulkActionAnswer } from '@portal/contract/card-bulk';
import { EVENT_TYPES } from '@portal/contract/events';
import type { StreamEvent } from '@portal/contract/messages';
import type { QueryClient } from '@tanstack/react-query';
import { bulkKeys } from '../api/bulk-actions.ts';

const count = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null);

/**
 * BULK_ACTION_PROGRESS moves the widget at once: the action's figures are written into the cache of its
 * status call (never backwards: a late event of an earlier moment leaves the newer figures). Its end, or
 * figures that cannot be read, make the status (with each card's result) be asked again. Answers whether
 * the event was one.
 */
export function applyBulkEvent(queryClient: QueryClient, event: StreamEvent): boolean {
  if (event.type !== EVENT_TYPES.bulkProgress) return false;
  const payload = event as StreamEvent & Record<string, unknown>;
  const id = typeof payload.bulk_id === 'string' ? payload.bulk_id : null;
  if (!id) return true;
  const key = bulkKeys.detail(id);
  const current = queryClient.getQueryData<BulkActionAnswer>(key);
  const succeeded = count(payload.succeeded);
  const failed = count(payload.failed);
  const total = count(payload.total);
  const status = BULK_STATUSES.find((candidate) => candidate === payload.status) ?? null;
  if (current && succeeded !== null && failed !== null && total !== null && status) {
    // an ended action stays ended: a late event of its last card cannot make it run again
    const later = succeeded + failed > current.succeeded + current.failed || (succeeded + failed === current.succeeded + current.failed && current.status !== 'DONE');
    if (later) queryClient.setQueryData<BulkActionAnswer>(key, { ...current, status, total, succeeded, failed });
    if (status === 'DONE') void queryClient.invalidateQueries({ queryKey: key });
    return true;
  }
  void queryClient.invalidateQueries({ queryKey: key });
  return true;
}
