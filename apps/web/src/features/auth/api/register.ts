import type { PhoneInfo } from '@portal/contract/validation';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as accountCalls from '../../../lib/generated/account-calls.ts';

export interface RegisterBody {
  phone_prefix: PhoneInfo['phone_prefix'];
  phone: string;
  password: string;
  captcha: string;
  /** null when none was given */
  invitation_code: string | null;
  /** a team's invitation token (/sign-up?invitation=…): the new member joins that team */
  invitation?: string;
}

/** POST /account/register: the answer's token can only bind an e-mail (or log out). */
export const register = (body: RegisterBody) => call(accountCalls.register, { body });

export const useRegister = () => useMutation({ mutationFn: register });
