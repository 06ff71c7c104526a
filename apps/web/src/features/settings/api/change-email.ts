import type { ChangeEmailAnswer, ChangeEmailBody } from '@portal/contract/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountKeys } from '../../../lib/account-keys.ts';
import { http } from '../../../lib/http.ts';
import { settingsKeys } from './settings-keys.ts';

/** POST /api/v1/account/email/change: the old address's code (old_captcha) and the new one's (captcha). */
export const changeEmail = (body: ChangeEmailBody) => http.post<ChangeEmailAnswer>('/api/v1/account/email/change', body);

export const useChangeEmail = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeEmail,
    // the header shows the account's e-mail
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: settingsKeys.all }), queryClient.invalidateQueries({ queryKey: accountKeys.all })]),
  });
};
