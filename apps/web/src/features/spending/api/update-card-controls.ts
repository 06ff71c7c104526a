import type { CardControlsBody } from '@portal/contract/card-spending';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as spendingCalls from '../../../lib/generated/spending-calls.ts';
import { cardKeys } from '../../../domain/cards/api/card-keys.ts';

/** PUT /card/:id/controls: the whole set as the page edits it; answers the controls as they now are. */
export const updateCardControls = (id: string, body: CardControlsBody) => call(spendingCalls.saveControls, { params: { id }, body });

export const useUpdateCardControls = (id: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CardControlsBody) => updateCardControls(id, body),
    onSuccess: (controls) => queryClient.setQueryData(cardKeys.controls(id), controls),
  });
};
