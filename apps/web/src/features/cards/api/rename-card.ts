import type { PatchCardBody } from '@portal/contract/cards';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as cardCalls from '../../../lib/generated/cards-calls.ts';
import { storeCardChange } from '../../../domain/cards/api/card-cache.ts';

/** PATCH /card/:id: a new nickname (1–20 characters). */
export const renameCard = (id: string, body: PatchCardBody) => call(cardCalls.rename, { params: { id }, body });

export const useRenameCard = (id: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (nickname: string) => renameCard(id, { nickname }),
    onSuccess: (card) => storeCardChange(queryClient, card),
  });
};
