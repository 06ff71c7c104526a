import type { PhoneInfo } from '@portal/contract/validation';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';

/** Authorised by the ticket of the phone code check, or by the code of the e-mailed link. */
export type ResetPasswordBody =
  | { phone_info: PhoneInfo; ticket: string; password: string }
  | { email: string; captcha: string; password: string };

/** PUT /api/v1/account/forget-password: every session of the account ends. */
export const resetPassword = (body: ResetPasswordBody) => http.put<null>('/api/v1/account/forget-password', body);

export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
