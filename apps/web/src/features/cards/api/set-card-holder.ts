import { useMutation, useQueryClient } from '@tanstack/react-query';
import { storeCardChange } from '../../../domain/cards/api/card-cache.ts';
import { call } from '../../../lib/api-client.ts';
import * as teamCalls from '../../../lib/generated/team-calls.ts';
import { answersOf } from '../../../lib/query-keys.ts';

/** PUT /card/:id/holder: another active member of the team holds the card. */
export const setCardHolder = (id: string, holderMemberId: string) => call(teamCalls.setCardHolder, { params: { id }, body: { holder_member_id: holderMemberId } });

export const useSetCardHolder = (id: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (holderMemberId: string) => setCardHolder(id, holderMemberId),
    onSuccess: (card) => {
      storeCardChange(queryClient, card);
      // the members' counts of cards held change with it
      void queryClient.invalidateQueries(answersOf(teamCalls.members));
    },
  });
};
