import type { CardControls, CardControlsBody } from '@portal/contract/card-spending';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { cardKeys } from './card-keys.ts';

/** PUT /api/v1/card/{id}/controls: the whole set as the page edits it; answers the controls as they now are. */
export const updateCardControls = (id: string, body: CardControlsBody) =>
  http.put<CardControls>(`/api/v1/card/${encodeURIComponent(id)}/controls`, body);

export const useUpdateCardControls = (id: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CardControlsBody) => updateCardControls(id, body),
    onSuccess: (controls) => queryClient.setQueryData(cardKeys.controls(id), controls),
  });
};
