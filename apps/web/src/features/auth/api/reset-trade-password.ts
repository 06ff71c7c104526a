import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getAccountInfoQueryOptions } from '../../../domain/account/api/get-account-info.ts';
import { call } from '../../../lib/api-client.ts';
import * as accountCalls from '../../../lib/generated/account-calls.ts';

export interface ResetTradePasswordBody {
  email: string;
  trx_password: string;
  captcha: string;
}

/** PUT /account/forget-trx-password: a new trade password with the code of the e-mailed link. */
export const resetTradePassword = (body: ResetTradePasswordBody) => call(accountCalls.forgetTradePassword, { body });

export const useResetTradePassword = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetTradePassword,
    // signed in in this tab too: the money dialogs and /settings read whether it is set again
    onSuccess: () => queryClient.invalidateQueries({ queryKey: getAccountInfoQueryOptions().queryKey }),
  });
};
