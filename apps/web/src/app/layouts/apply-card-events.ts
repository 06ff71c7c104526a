import type { StreamEvent } from '@portal/contract/messages';
import type { QueryClient } from '@tanstack/react-query';
import { applyBulkEvent } from '../../domain/bulk/lib/apply-bulk-event.ts';
import { applyBatchEvent } from '../../features/batches/lib/apply-batch-event.ts';
import { applyCardEvent } from '../../features/cards/lib/apply-card-event.ts';
import { applySpendingEvent } from '../../features/spending/lib/apply-spending-event.ts';

/**
 * What the event stream changes on the card screens, each event taken by the one card feature it is
 * about: batches and exports; a card's transaction or a 3-D Secure code (a transaction's fields come
 * before its event's type: a card's status or a balance that names a transaction reads that card
 * again); a bulk action's figures; a card's status, the balances or the wallet's status.
 */
export function applyCardEvents(queryClient: QueryClient, event: StreamEvent) {
  if (applyBatchEvent(queryClient, event)) return;
  if (applyBulkEvent(queryClient, event)) return;
  if (applySpendingEvent(queryClient, event)) return;
  applyCardEvent(queryClient, event);
}
