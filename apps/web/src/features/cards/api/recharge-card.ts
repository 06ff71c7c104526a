import { type CardAmountBody, IDEMPOTENCY_HEADER } from '@portal/contract/cards';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as cardCalls from '../../../lib/generated/cards-calls.ts';
import { refreshAroundCard, storeCardChange } from '../../../domain/cards/api/card-cache.ts';

/** POST /card/:id/recharge: wallet → card, with the card's top-up fee (the terms it was opened under); answers the card, the fee and the total taken. */
export const rechargeCard = (id: string, body: CardAmountBody, idempotencyKey: string) =>
  call(cardCalls.recharge, { params: { id }, body, headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } });

export const useRechargeCard = (id: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: CardAmountBody; idempotencyKey: string }) => rechargeCard(id, body, idempotencyKey),
    onSuccess: (answer) => storeCardChange(queryClient, answer.card),
    onError: () => refreshAroundCard(queryClient, id),
  });
};
