import type { TrxPasswordBody } from '@portal/contract/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountKeys } from '../../../lib/account-keys.ts';
import { http } from '../../../lib/http.ts';
import { settingsKeys } from './settings-keys.ts';

/** PUT /api/v1/account/trx-password: the first trade password, or a new one with old_trx_password. */
export const setTradePassword = (body: TrxPasswordBody) => http.put<null>('/api/v1/account/trx-password', body);

export const useSetTradePassword = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setTradePassword,
    // once set, the section turns into the change form and the money dialogs ask for it (the account's info says so); the overview refreshes
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: settingsKeys.all }), queryClient.invalidateQueries({ queryKey: accountKeys.all })]),
  });
};
