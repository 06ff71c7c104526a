import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import type { PhoneInfo } from './send-code.ts';

export interface RecoveryCheckBody {
  phone_info: PhoneInfo;
  captcha: string;
}

/** POST /api/v1/account/forget-password/check: the SMS code buys a single-use ticket for the reset. */
export const checkRecoveryCode = (body: RecoveryCheckBody) =>
  http.post<{ ticket: string }>('/api/v1/account/forget-password/check', body);

export const useCheckRecoveryCode = () => useMutation({ mutationFn: checkRecoveryCode });
