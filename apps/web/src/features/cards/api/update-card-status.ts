import type { CardStatusBody } from '@portal/contract/cards';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as cardCalls from '../../../lib/generated/cards-calls.ts';
import { refreshAroundCard, storeCardChange } from '../../../domain/cards/api/card-cache.ts';

/** PUT /card/:id/status: FREEZE or UNFREEZE; the card answers FREEZING or UNFREEZING until the issuer confirms. */
export const updateCardStatus = (id: string, body: CardStatusBody) => call(cardCalls.changeStatus, { params: { id }, body });

export const useUpdateCardStatus = (id: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: CardStatusBody['action']) => updateCardStatus(id, { action }),
    onSuccess: (card) => storeCardChange(queryClient, card),
    // refused (the status moved meanwhile) or unanswered: show the card as it is now
    onError: () => refreshAroundCard(queryClient, id),
  });
};
