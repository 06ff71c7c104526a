import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountKeys } from '../../../lib/account-keys.ts';
import { http } from '../../../lib/http.ts';

export interface ResetTradePasswordBody {
  email: string;
  trx_password: string;
  captcha: string;
}

/** PUT /api/v1/account/forget-trx-password: a new trade password with the code of the e-mailed link. */
export const resetTradePassword = (body: ResetTradePasswordBody) => http.put<null>('/api/v1/account/forget-trx-password', body);

export const useResetTradePassword = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetTradePassword,
    // signed in in this tab too: the money dialogs and /settings read whether it is set again
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.all }),
  });
};
