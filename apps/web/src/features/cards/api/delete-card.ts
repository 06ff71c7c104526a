import type { CardItem } from '@portal/contract/cards';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { refreshAroundCard, storeCardChange } from './card-cache.ts';

/** DELETE /api/v1/card/{id}: closes the card (DELETING until the issuer confirms); its balance goes back to the wallet. */
export const deleteCard = (id: string) => http.delete<CardItem>(`/api/v1/card/${encodeURIComponent(id)}`);

export const useDeleteCard = (id: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteCard(id),
    onSuccess: (card) => storeCardChange(queryClient, card),
    onError: () => refreshAroundCard(queryClient, id),
  });
};
