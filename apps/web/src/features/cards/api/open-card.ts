import { IDEMPOTENCY_HEADER, type OpenCardBody } from '@portal/contract/cards';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as cardCalls from '../../../lib/generated/cards-calls.ts';
import { refreshAroundCard, storeCardChange } from '../../../domain/cards/api/card-cache.ts';

/** POST /card: opens a card (CARD_STATUS_INIT until the issuer answers), paid from the wallet. */
export const openCard = (body: OpenCardBody, idempotencyKey: string) =>
  call(cardCalls.open, { body, headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } });

export const useOpenCard = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: OpenCardBody; idempotencyKey: string }) => openCard(body, idempotencyKey),
    onSuccess: (card) => storeCardChange(queryClient, card),
    onError: () => refreshAroundCard(queryClient, null),
  });
};
