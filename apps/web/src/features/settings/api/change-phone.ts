import type { ChangePhoneAnswer, ChangePhoneBody } from '@portal/contract/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountKeys } from '../../../lib/account-keys.ts';
import { http } from '../../../lib/http.ts';
import { settingsKeys } from './settings-keys.ts';

/** POST /api/v1/account/phone/change: the old phone's code (old_captcha) and the new one's (captcha). */
export const changePhone = (body: ChangePhoneBody) => http.post<ChangePhoneAnswer>('/api/v1/account/phone/change', body);

export const useChangePhone = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePhone,
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: settingsKeys.all }), queryClient.invalidateQueries({ queryKey: accountKeys.all })]),
  });
};
