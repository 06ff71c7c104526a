import type { BatchCreateCardAnswer, BatchCreateCardBody } from '@portal/contract/card-batches';
import { IDEMPOTENCY_HEADER } from '@portal/contract/cards';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { refreshAroundCard } from './card-cache.ts';
import { cardKeys } from './card-keys.ts';

/** POST /api/v1/batch-create-card: 2–500 cards of one product; the whole cost is held, a job opens them. */
export const createCardBatch = (body: BatchCreateCardBody, idempotencyKey: string) =>
  http.post<BatchCreateCardAnswer>('/api/v1/batch-create-card', body, { headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } });

export const useCreateCardBatch = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: BatchCreateCardBody; idempotencyKey: string }) => createCardBatch(body, idempotencyKey),
    onSettled: () => {
      // the cards exist at once (申请中), the wallet holds their cost, and the widget starts to follow the batch
      refreshAroundCard(queryClient, null);
      void queryClient.invalidateQueries({ queryKey: cardKeys.batchStatus() });
    },
  });
};
