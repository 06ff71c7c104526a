import type { DeleteCardBody } from '@portal/contract/cards';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as cardCalls from '../../../lib/generated/cards-calls.ts';
import { refreshAroundCard, storeCardChange } from '../../../domain/cards/api/card-cache.ts';

/**
 * DELETE /card/:id: closes the card (DELETING until the issuer confirms); its balance goes back
 * to the wallet, which takes the trade password once one is set.
 */
export const deleteCard = (id: string, body: DeleteCardBody = {}) =>
  call(cardCalls.remove, { params: { id }, body: body?.trx_password ? body : undefined });

export const useDeleteCard = (id: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DeleteCardBody = {}) => deleteCard(id, body),
    onSuccess: (card) => storeCardChange(queryClient, card),
    onError: () => refreshAroundCard(queryClient, id),
  });
};
