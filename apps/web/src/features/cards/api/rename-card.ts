import type { CardItem, PatchCardBody } from '@portal/contract/cards';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { storeCardChange } from './card-cache.ts';

/** PATCH /api/v1/card/{id}: a new nickname (1–20 characters). */
export const renameCard = (id: string, body: PatchCardBody) => http.patch<CardItem>(`/api/v1/card/${encodeURIComponent(id)}`, body);

export const useRenameCard = (id: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (nickname: string) => renameCard(id, { nickname }),
    onSuccess: (card) => storeCardChange(queryClient, card),
  });
};
