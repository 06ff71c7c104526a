import type { ForgetCheckAnswer } from '@portal/contract/account';
import type { PhoneInfo } from '@portal/contract/validation';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';

export interface RecoveryCheckBody {
  phone_info: PhoneInfo;
  captcha: string;
}

/** POST /api/v1/account/forget-password/check: the SMS code buys a single-use ticket for the reset. */
export const checkRecoveryCode = (body: RecoveryCheckBody) =>
  http.post<ForgetCheckAnswer>('/api/v1/account/forget-password/check', body);

export const useCheckRecoveryCode = () => useMutation({ mutationFn: checkRecoveryCode });
