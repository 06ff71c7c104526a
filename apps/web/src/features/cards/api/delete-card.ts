import type { CardItem, DeleteCardBody } from '@portal/contract/cards';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { refreshAroundCard, storeCardChange } from './card-cache.ts';

/**
 * DELETE /api/v1/card/{id}: closes the card (DELETING until the issuer confirms); its balance goes back
 * to the wallet, which takes the trade password once one is set.
 */
export const deleteCard = (id: string, body: DeleteCardBody = {}) =>
  http.delete<CardItem>(`/api/v1/card/${encodeURIComponent(id)}`, body?.trx_password ? { data: body } : undefined);

export const useDeleteCard = (id: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DeleteCardBody = {}) => deleteCard(id, body),
    onSuccess: (card) => storeCardChange(queryClient, card),
    onError: () => refreshAroundCard(queryClient, id),
  });
};
