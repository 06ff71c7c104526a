import type { CardTagsBody } from '@portal/contract/card-list';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as cardCalls from '../../../lib/generated/cards-calls.ts';
import { storeCardChange } from '../../../domain/cards/api/card-cache.ts';
import { cardKeys } from '../../../domain/cards/api/card-keys.ts';

/** PUT /card/:id/tags: the card's whole set of tags (at most 10, each 1–20 characters, none twice). */
export const setCardTags = (id: string, body: CardTagsBody) => call(cardCalls.setTags, { params: { id }, body });

export const useSetCardTags = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, tags }: { id: string; tags: string[] }) => setCardTags(id, { tags }),
    onSuccess: (card) => {
      storeCardChange(queryClient, card);
      // the rules of its tags follow the card: the rule in force (and the tag rules' counts) read again
      void queryClient.invalidateQueries({ queryKey: cardKeys.autoRecharge(card.id) });
      void queryClient.invalidateQueries({ queryKey: cardKeys.tagAutoRecharge() });
    },
  });
};
