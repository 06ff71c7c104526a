import type { EndSessionsAnswer } from '@portal/contract/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { settingsKeys } from './settings-keys.ts';

/** DELETE /api/v1/account/sessions?others=true: every session but this one ends; the answer says how many. */
export const endOtherSessions = () => http.delete<EndSessionsAnswer>('/api/v1/account/sessions', { params: { others: 'true' } });

export const useEndOtherSessions = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endOtherSessions,
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKeys.all }),
  });
};
