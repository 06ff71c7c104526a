import type { PhoneInfo } from '@portal/contract/validation';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as accountCalls from '../../../lib/generated/account-calls.ts';

export interface RecoveryCheckBody {
  phone_info: PhoneInfo;
  captcha: string;
}

/** POST /account/forget-password/check: the SMS code buys a single-use ticket for the reset. */
export const checkRecoveryCode = (body: RecoveryCheckBody) => call(accountCalls.forgetPasswordCheck, { body });

export const useCheckRecoveryCode = () => useMutation({ mutationFn: checkRecoveryCode });
