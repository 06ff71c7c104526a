import type { PhoneInfo } from '@portal/contract/validation';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as accountCalls from '../../../lib/generated/account-calls.ts';

/** Authorised by the ticket of the phone code check, or by the code of the e-mailed link. */
export type ResetPasswordBody =
  | { phone_info: PhoneInfo; ticket: string; password: string }
  | { email: string; captcha: string; password: string };

/** PUT /account/forget-password: every session of the account ends. */
export const resetPassword = (body: ResetPasswordBody) => call(accountCalls.forgetPassword, { body });

export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
