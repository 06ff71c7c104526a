import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { settingsKeys } from './settings-keys.ts';

/** DELETE /api/v1/account/sessions/{id}: that session's open tabs log out at once. */
export const endSession = (id: string) => http.delete<null>(`/api/v1/account/sessions/${encodeURIComponent(id)}`);

export const useEndSession = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKeys.all }),
  });
};
