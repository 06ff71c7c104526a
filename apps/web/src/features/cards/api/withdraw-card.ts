import { type CardAmountBody, IDEMPOTENCY_HEADER, type WithdrawAnswer } from '@portal/contract/cards';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { refreshAroundCard, storeCardChange } from './card-cache.ts';

/** POST /api/v1/card/{id}/withdraw: card → wallet, no fee. */
export const withdrawCard = (id: string, body: CardAmountBody, idempotencyKey: string) =>
  http.post<WithdrawAnswer>(`/api/v1/card/${encodeURIComponent(id)}/withdraw`, body, { headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } });

export const useWithdrawCard = (id: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: CardAmountBody; idempotencyKey: string }) => withdrawCard(id, body, idempotencyKey),
    onSuccess: (answer) => storeCardChange(queryClient, answer.card),
    onError: () => refreshAroundCard(queryClient, id),
  });
};
