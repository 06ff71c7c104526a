import { type CardItem, IDEMPOTENCY_HEADER, type OpenCardBody } from '@portal/contract/cards';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { refreshAroundCard, storeCardChange } from './card-cache.ts';

/** POST /api/v1/card: opens a card (CARD_STATUS_INIT until the issuer answers), paid from the wallet. */
export const openCard = (body: OpenCardBody, idempotencyKey: string) =>
  http.post<CardItem>('/api/v1/card', body, { headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } });

export const useOpenCard = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: OpenCardBody; idempotencyKey: string }) => openCard(body, idempotencyKey),
    onSuccess: (card) => storeCardChange(queryClient, card),
    onError: () => refreshAroundCard(queryClient, null),
  });
};
