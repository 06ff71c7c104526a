import type { ChangePasswordBody } from '@portal/contract/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as securityCalls from '../../../lib/generated/security-calls.ts';
import { settingsKeys } from './settings-keys.ts';

/** PUT /account/password: every other session of the account ends; the answer says how many. */
export const changePassword = (body: ChangePasswordBody) => call(securityCalls.changePassword, { body });

export const useChangePassword = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: () => queryClient.invalidateQueries(settingsKeys.all()),
  });
};
