import type { TrxPasswordBody } from '@portal/contract/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getAccountInfoQueryOptions } from '../../../domain/account/api/get-account-info.ts';
import { call } from '../../../lib/api-client.ts';
import * as securityCalls from '../../../lib/generated/security-calls.ts';
import { settingsKeys } from './settings-keys.ts';

/** PUT /account/trx-password: the first trade password, or a new one with old_trx_password. */
export const setTradePassword = (body: TrxPasswordBody) => call(securityCalls.setTradePassword, { body });

export const useSetTradePassword = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setTradePassword,
    // once set, the section turns into the change form and the money dialogs ask for it (the account's info says so); the overview refreshes
    onSuccess: () => Promise.all([queryClient.invalidateQueries(settingsKeys.all()), queryClient.invalidateQueries({ queryKey: getAccountInfoQueryOptions().queryKey })]),
  });
};
