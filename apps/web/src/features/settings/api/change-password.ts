import type { ChangePasswordAnswer, ChangePasswordBody } from '@portal/contract/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { settingsKeys } from './settings-keys.ts';

/** PUT /api/v1/account/password: every other session of the account ends; the answer says how many. */
export const changePassword = (body: ChangePasswordBody) => http.put<ChangePasswordAnswer>('/api/v1/account/password', body);

export const useChangePassword = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.all }),
  });
};
