import type { ChangePhoneBody } from '@portal/contract/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getAccountInfoQueryOptions } from '../../../domain/account/api/get-account-info.ts';
import { call } from '../../../lib/api-client.ts';
import * as securityCalls from '../../../lib/generated/security-calls.ts';
import { settingsKeys } from './settings-keys.ts';

/** POST /account/phone/change: the old phone's code (old_captcha) and the new one's (captcha). */
export const changePhone = (body: ChangePhoneBody) => call(securityCalls.changePhone, { body });

export const useChangePhone = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePhone,
    onSuccess: () => Promise.all([queryClient.invalidateQueries(settingsKeys.all()), queryClient.invalidateQueries({ queryKey: getAccountInfoQueryOptions().queryKey })]),
  });
};
