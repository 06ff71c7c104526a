import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as securityCalls from '../../../lib/generated/security-calls.ts';
import { settingsKeys } from './settings-keys.ts';

/** DELETE /account/sessions?others=true: every session but this one ends; the answer says how many. */
export const endOtherSessions = () => call(securityCalls.endOtherSessions, { query: { others: 'true' } });

export const useEndOtherSessions = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endOtherSessions,
    onSettled: () => queryClient.invalidateQueries(settingsKeys.all()),
  });
};
