import type { BatchCreateCardBody } from '@portal/contract/card-batches';
import { IDEMPOTENCY_HEADER } from '@portal/contract/cards';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as cardBatchCalls from '../../../lib/generated/card-batches-calls.ts';
import { refreshAroundCard } from '../../../domain/cards/api/card-cache.ts';
import { cardKeys } from '../../../domain/cards/api/card-keys.ts';

/** POST /batch-create-card: 2–500 cards of one product; the whole cost is held, a job opens them. */
export const createCardBatch = (body: BatchCreateCardBody, idempotencyKey: string) =>
  call(cardBatchCalls.create, { body, headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } });

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
