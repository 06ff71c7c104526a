import { type CardAmountBody, IDEMPOTENCY_HEADER } from '@portal/contract/cards';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as cardCalls from '../../../lib/generated/cards-calls.ts';
import { refreshAroundCard, storeCardChange } from '../../../domain/cards/api/card-cache.ts';

/** POST /card/:id/withdraw: card → wallet, no fee. */
export const withdrawCard = (id: string, body: CardAmountBody, idempotencyKey: string) =>
  call(cardCalls.withdraw, { params: { id }, body, headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } });

export const useWithdrawCard = (id: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: CardAmountBody; idempotencyKey: string }) => withdrawCard(id, body, idempotencyKey),
    onSuccess: (answer) => storeCardChange(queryClient, answer.card),
    onError: () => refreshAroundCard(queryClient, id),
  });
};
