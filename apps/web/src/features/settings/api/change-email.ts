import type { ChangeEmailBody } from '@portal/contract/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getAccountInfoQueryOptions } from '../../../domain/account/api/get-account-info.ts';
import { call } from '../../../lib/api-client.ts';
import * as securityCalls from '../../../lib/generated/security-calls.ts';
import { settingsKeys } from './settings-keys.ts';

/** POST /account/email/change: the old address's code (old_captcha) and the new one's (captcha). */
export const changeEmail = (body: ChangeEmailBody) => call(securityCalls.changeEmail, { body });

export const useChangeEmail = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeEmail,
    // the header shows the account's e-mail
    onSuccess: () => Promise.all([queryClient.invalidateQueries(settingsKeys.all()), queryClient.invalidateQueries({ queryKey: getAccountInfoQueryOptions().queryKey })]),
  });
};
