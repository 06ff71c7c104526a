import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as securityCalls from '../../../lib/generated/security-calls.ts';
import { settingsKeys } from './settings-keys.ts';

/** DELETE /account/sessions/:id: that session's open tabs log out at once. */
export const endSession = (id: string) => call(securityCalls.endSession, { params: { id } });

export const useEndSession = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endSession,
    onSettled: () => queryClient.invalidateQueries(settingsKeys.all()),
  });
};
