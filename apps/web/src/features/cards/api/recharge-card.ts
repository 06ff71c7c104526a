import { type CardAmountBody, IDEMPOTENCY_HEADER, type RechargeAnswer } from '@portal/contract/cards';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { refreshAroundCard, storeCardChange } from './card-cache.ts';

/** POST /api/v1/card/{id}/recharge: wallet → card, with the product's top-up fee; answers the card, the fee and the total taken. */
export const rechargeCard = (id: string, body: CardAmountBody, idempotencyKey: string) =>
  http.post<RechargeAnswer>(`/api/v1/card/${encodeURIComponent(id)}/recharge`, body, { headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } });

export const useRechargeCard = (id: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: CardAmountBody; idempotencyKey: string }) => rechargeCard(id, body, idempotencyKey),
    onSuccess: (answer) => storeCardChange(queryClient, answer.card),
    onError: () => refreshAroundCard(queryClient, id),
  });
};
