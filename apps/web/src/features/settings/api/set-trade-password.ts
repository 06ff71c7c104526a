import type { TrxPasswordBody } from '@portal/contract/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { settingsKeys } from './settings-keys.ts';

/** PUT /api/v1/account/trx-password: the first trade password, or a new one with old_trx_password. */
export const setTradePassword = (body: TrxPasswordBody) => http.put<null>('/api/v1/account/trx-password', body);

export const useSetTradePassword = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setTradePassword,
    // once set, the section turns into the change form
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.account() }),
  });
};
